/**
 * Real web processes (server/http/main.ts) for tests that run several of them on one database:
 * API-only (WEB_API_ONLY=1: everything that is ours, no Next.js, so one starts in seconds), each on a
 * port the system picks, resolved with the URL it printed once listening; SIGKILLed on demand, all
 * killed when the file ends. One that dies by itself (not our SIGKILL) prints its last words.
 *
 * Diagnosing a failure: `TEST_WEB_LOG=/tmp/web` writes each process's warnings and errors (an
 * unexpected 500 logs its cause) to `/tmp/web.<pid>`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface WebProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>`, as the process announced it. */
  url: string;
}

export interface WebProcesses {
  /** Starts one and resolves once it listens (rejects if it exits first or stays silent for `timeoutMs`). */
  start(env?: Record<string, string>, options?: { timeoutMs?: number }): Promise<WebProcess>;
  kill(web: WebProcess): Promise<void>;
  /** SIGKILLs every web process still alive (afterAll). */
  killAll(): void;
}

export function webProcesses(sharedEnv: Record<string, string>): WebProcesses {
  const alive = new Set<ChildProcess>();
  return {
    start(env = {}, options = {}) {
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/http/main.ts'], {
        cwd: root,
        env: { ...process.env, LOG_LEVEL: process.env.TEST_WEB_LOG ? 'warn' : 'silent', NODE_ENV: 'test', HOST: '127.0.0.1', PORT: '0', WEB_API_ONLY: '1', ...sharedEnv, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      alive.add(child);
      let errors = '';
      child.stderr?.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4_000)));
      if (process.env.TEST_WEB_LOG) {
        const file = createWriteStream(`${process.env.TEST_WEB_LOG}.${child.pid}`);
        child.stdout?.pipe(file);
        child.stderr?.pipe(file);
      }
      child.once('exit', (code, signal) => {
        alive.delete(child);
        if (signal !== 'SIGKILL') console.error(`web process exited (${code ?? signal}): ${errors}`);
      });
      return new Promise<WebProcess>((resolve, reject) => {
        let output = '';
        const timer = setTimeout(() => reject(new Error(`web process not listening after ${options.timeoutMs ?? 60_000} ms: ${errors}`)), options.timeoutMs ?? 60_000);
        child.stdout?.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const url = /ready on (http:\/\/\S+)/.exec(output)?.[1];
          if (url) {
            clearTimeout(timer);
            resolve({ child, url });
          }
        });
        child.once('exit', () => {
          clearTimeout(timer);
          reject(new Error(`web process exited before listening: ${errors}`));
        });
      });
    },
    async kill({ child }) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      await exited;
    },
    killAll() {
      for (const child of alive) child.kill('SIGKILL');
    },
  };
}
