/**
 * Child servers of the benchmark. Each runs in its own process group (so `tsx`'s relay and the
 * node process under it stop together, and a Ctrl-C in the terminal reaches only us: we stop them
 * in order). Every child started here is tracked and stopped by `stopAll` and, as a last resort,
 * killed from a synchronous `exit` handler.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface ChildServer {
  name: string;
  pid: number;
  url: string;
  port: number;
  /** Last lines of its stdout/stderr, for error messages. */
  tail(): string;
  /** Lines printed after `ready`: how many, and how many distinct (each distinct one is echoed once). */
  logged(): { lines: number; distinct: string[] };
  stop(): Promise<void>;
}

const running = new Set<ChildServer>();

process.on('exit', () => {
  for (const child of running) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((child) => child.stop()));
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

export function startServer(options: {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
  readyTimeoutMs?: number;
  /** Matches the line announcing the server's URL (first group, optional); default `ready on <url>`. */
  readyPattern?: RegExp;
  /** Echo each distinct line printed after `ready` at once (otherwise read them with `logged()`). */
  echo?: boolean;
  /** Ready as soon as it is spawned (a worker that prints nothing when quiet; the caller probes it). */
  readyAtSpawn?: boolean;
}): Promise<ChildServer> {
  const { name, command, args, env, cwd, readyTimeoutMs = 60_000, echo = false, readyPattern = /ready on (https?:\/\/\S+)/, readyAtSpawn = false } = options;
  const child: ChildProcess = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let exited: Promise<void>;
  let ready = false;
  const seen = new Set<string>();
  let loggedLines = 0;

  return new Promise<ChildServer>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${name} did not print "ready on <url>" within ${readyTimeoutMs / 1000} s`)), readyTimeoutMs);
    const server: ChildServer = {
      name,
      pid: child.pid!,
      url: '',
      port: 0,
      tail: () => lines.slice(-30).join('\n'),
      logged: () => ({ lines: loggedLines, distinct: [...seen] }),
      async stop() {
        running.delete(server);
        if (child.exitCode !== null || child.signalCode !== null) return;
        signalGroup(child.pid!, 'SIGTERM');
        const timeout = new Promise<boolean>((done) => setTimeout(() => done(false), 10_000).unref());
        if (!(await Promise.race([exited.then(() => true), timeout]))) {
          signalGroup(child.pid!, 'SIGKILL');
          await exited;
        }
      },
    };
    running.add(server);
    exited = new Promise<void>((done) => child.once('exit', () => done()));
    if (readyAtSpawn) {
      ready = true;
      clearTimeout(timer);
      resolve(server);
    }
    const onLine = (line: string) => {
      lines.push(line);
      if (lines.length > 200) lines.shift();
      const match = readyPattern.exec(line);
      if (match && !ready) {
        ready = true;
        clearTimeout(timer);
        // A pattern without a URL group (a worker process that serves nothing) leaves url and port empty.
        server.url = match[1] ?? '';
        server.port = match[1] ? Number(new URL(match[1]).port) : 0;
        resolve(server);
        return;
      }
      if (!ready || line.trim() === '') return;
      loggedLines += 1;
      // pino lines differ only by time: echo each distinct message once.
      const normalised = line.replace(/"time":\d+,?/, '').slice(0, 300);
      if (seen.has(normalised)) return;
      seen.add(normalised);
      if (echo) console.log(`  [${name}] ${normalised}`);
    };
    const split = (stream: NodeJS.ReadableStream) => {
      let partial = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        const parts = (partial + chunk).split('\n');
        partial = parts.pop() ?? '';
        for (const line of parts) onLine(line);
      });
    };
    split(child.stdout!);
    split(child.stderr!);
    function fail(error: Error) {
      clearTimeout(timer);
      void server.stop();
      reject(new Error(`${error.message}\n--- ${name} output ---\n${lines.slice(-30).join('\n')}`));
    }
    child.once('error', (error) => fail(error));
    child.once('exit', (code, signal) => {
      if (!ready) fail(new Error(`${name} exited before it was ready (code ${code}, signal ${signal})`));
      else if (running.has(server)) console.log(`  [${name}] exited unexpectedly (code ${code}, signal ${signal})`);
    });
  });
}
