/** Small helpers shared by the test mail servers: wait for a listener, stop a child process. */
import type { ChildProcess } from 'node:child_process';
import net from 'node:net';

/** Resolves once a TCP connection to host:port succeeds; rejects after `timeoutMs` or when `abort` says so. */
export async function waitForListener(
  host: string,
  port: number,
  options: { timeoutMs: number; abort?: () => Error | null },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const failure = options.abort?.();
    if (failure) throw failure;
    if (await canConnect(host, port)) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on ${host}:${port} after ${options.timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** SIGTERM to the whole process group (the child was spawned detached), SIGKILL after `graceMs`. */
export async function stopProcessGroup(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      try {
        child.kill(name);
      } catch {
        // already gone
      }
    }
  };
  signal('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), graceMs);
  });
  const killed = await Promise.race([exited.then(() => false), timedOut]);
  clearTimeout(timer);
  if (killed) {
    signal('SIGKILL');
    await exited;
  }
}
