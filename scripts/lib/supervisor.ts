/**
 * The child processes of `npm start` (the Next build, the web server, the runner).
 *
 * Each child runs in its own process group: a terminal Ctrl-C then reaches only us, and we stop the
 * children in our order (web and runner, then the database). Stopping sends SIGTERM to the child,
 * waits, then SIGKILLs its whole group, so nothing it started itself survives either.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';
import { guardAgainstOrphans } from '../../server/core/orphan-guard';
import type { ChildExit, Incarnation } from './keep-alive';

export interface ChildSpec {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Sees each output line (stdout and stderr), e.g. to notice readiness. */
  onLine?: (line: string) => void;
}

interface Supervised {
  spec: ChildSpec;
  child: ChildProcess;
  exited: Promise<void>;
  expectedExit: boolean;
}

export class Supervisor {
  private readonly children = new Set<Supervised>();

  constructor(private readonly write: (line: string) => void = (line) => process.stdout.write(`${line}\n`)) {}

  /**
   * A long-running child: how it exited, `expected` when `stopAll` asked for it (restarts are
   * scripts/lib/keep-alive.ts's business).
   */
  start(spec: ChildSpec): Incarnation {
    const supervised = this.spawn(spec);
    const exited = supervised.exited.then(
      (): ChildExit => ({ name: spec.name, code: supervised.child.exitCode, signal: supervised.child.signalCode, expected: supervised.expectedExit }),
    );
    return { pid: supervised.child.pid, exited };
  }

  /** A child that runs to completion (the build); resolves with its exit code. */
  async run(spec: ChildSpec): Promise<number | null> {
    const supervised = this.spawn(spec);
    supervised.expectedExit = true;
    await supervised.exited;
    return supervised.child.exitCode ?? (supervised.child.signalCode ? 128 : null);
  }

  pids(): number[] {
    return [...this.children].map((supervised) => supervised.child.pid!).filter(Boolean);
  }

  /** SIGTERM to every child, SIGKILL to the groups of those still running after `graceMs`. */
  async stopAll(graceMs: number): Promise<void> {
    const running = [...this.children];
    for (const supervised of running) {
      supervised.expectedExit = true;
      signal(supervised.child.pid, 'SIGTERM');
    }
    await Promise.all(
      running.map(async (supervised) => {
        if (!(await within(supervised.exited, graceMs))) {
          this.write(`${supervised.spec.name} did not stop within ${graceMs / 1000} s; killing it`);
        }
        // Also after a clean exit: whatever the child left behind in its group goes with it.
        signal(-supervised.child.pid!, 'SIGKILL');
        await supervised.exited;
      }),
    );
  }

  private spawn(spec: ChildSpec): Supervised {
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // If we are killed outright, the child's group must not outlive us.
    const guard = child.pid ? guardAgainstOrphans([-child.pid], { signal: 'SIGTERM', graceMs: 15_000 }) : null;
    const supervised: Supervised = {
      spec,
      child,
      expectedExit: false,
      exited: new Promise((resolve) => {
        child.once('error', (error) => {
          this.write(`[${spec.name}] could not start: ${error.message}`);
          this.children.delete(supervised);
          resolve();
        });
        // 'exit' rather than 'close': a grandchild holding the output pipe must not hide the exit.
        child.once('exit', () => {
          this.children.delete(supervised);
          resolve();
        });
      }),
    };
    void supervised.exited.then(() => guard?.disarm());
    this.children.add(supervised);
    for (const stream of [child.stdout, child.stderr]) {
      readline.createInterface({ input: stream! }).on('line', (line) => {
        this.write(`[${spec.name}] ${line}`);
        spec.onLine?.(line);
      });
    }
    return supervised;
  }
}

function signal(pid: number | undefined, name: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.then(() => true),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]).finally(() => clearTimeout(timer));
}
