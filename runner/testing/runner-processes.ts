/**
 * Real runner processes (runner/main.ts) for crash tests: started against a test database, killed
 * with SIGKILL at chosen moments, all killed when the file ends. A runner that dies by itself (not
 * our SIGKILL) prints its last words, since that is a failure worth reading.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface RunnerProcesses {
  /** `env`: this process's own settings over the shared ones (its health port, its database URL). */
  start(env?: Record<string, string>): ChildProcess;
  kill(child: ChildProcess): Promise<void>;
  /** SIGKILLs every runner still alive (afterAll). */
  killAll(): void;
}

/** `imports`: modules loaded before the runner's own (test fixtures such as runner/engine/testing/poison-nodes.ts). */
export function runnerProcesses(sharedEnv: Record<string, string>, options: { imports?: string[] } = {}): RunnerProcesses {
  const runners = new Set<ChildProcess>();
  const preloads = (options.imports ?? []).flatMap((entry) => ['--import', entry]);
  return {
    start(env = {}) {
      const child = spawn(process.execPath, ['--import', 'tsx', ...preloads, 'runner/main.ts'], {
        cwd: root,
        env: { ...process.env, LOG_LEVEL: 'silent', NODE_ENV: 'test', ...sharedEnv, ...env },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let errors = '';
      child.stderr?.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4_000)));
      runners.add(child);
      child.once('exit', (code, signal) => {
        runners.delete(child);
        if (signal !== 'SIGKILL') console.error(`runner exited (${code ?? signal}): ${errors}`);
      });
      return child;
    },
    async kill(child) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      await exited;
    },
    killAll() {
      for (const runner of runners) runner.kill('SIGKILL');
    },
  };
}
