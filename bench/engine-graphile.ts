/**
 * The floor of the engine bench (bench/engine.ts): graphile-worker alone, in a child process and a database of its
 * own (`createFloorDatabase`: graphile wakes every worker listening in a database at each job added there), with
 * the runner's worker settings (runner/worker-preset.ts) and one trivial task, `bench.chain`: job n of a chain adds job
 * n + 1 (5 jobs per chain, as the engine's workflow has 5 nodes); payload `{n, t}` where `t` is when the job
 * was added (or, for the first job, when the bench meant to add it). The child keeps, in memory, per job:
 *
 *   pickup  first job: its start − `t` (the latency from adding a job to a worker running it)
 *   hop     job 2..5: its start − the moment job n − 1 added it (graphile's cost of one step in a chain)
 *
 * and counts completed chains; the parent reads and resets them through the IPC channel. Alone this file is
 * the child's entry (`process.send` exists); the parent imports `startGraphileFloor`.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

export const chainTask = 'bench.chain';
export const chainLength = 5;

export interface ChainPayload {
  n: number;
  /** Epoch ms: when the previous job added this one, or the scheduled time of the first. */
  t: number;
  /** A single job, not a chain (the latency floor: its pickup only). */
  single?: boolean;
}

export interface FloorReport {
  pickups: number[];
  hops: number[];
  chainsDone: number;
}

type Request = { id: number; kind: 'report' | 'count' };

// ------------------------------------------------------------------------------------------------
// Parent side.

export interface GraphileFloor {
  pid: number;
  /** Pickup and hop samples since the last call (then cleared) and the chains completed so far. */
  report(): Promise<FloorReport>;
  /** Chains completed so far (cheap). */
  chainsDone(): Promise<number>;
  stop(): Promise<void>;
}

export async function startGraphileFloor(options: { databaseUrl: string; env: NodeJS.ProcessEnv; cwd: string }): Promise<GraphileFloor> {
  const entry = fileURLToPath(import.meta.url);
  const child: ChildProcess = fork(entry, [], {
    cwd: options.cwd,
    env: { ...options.env, DATABASE_URL: options.databaseUrl },
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killOnExit = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // gone
    }
  };
  process.on('exit', killOnExit);
  const waiting = new Map<number, (value: unknown) => void>();
  let nextId = 0;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the graphile floor worker did not start within 60 s')), 60_000);
    child.once('exit', (code) => reject(new Error(`the graphile floor worker exited before it was ready (code ${code})`)));
    child.on('message', (message: { ready?: boolean; id?: number; value?: unknown }) => {
      if (message.ready) {
        clearTimeout(timer);
        resolve();
      } else if (message.id !== undefined) {
        waiting.get(message.id)?.(message.value);
        waiting.delete(message.id);
      }
    });
  });
  const ask = <T>(kind: Request['kind']): Promise<T> =>
    new Promise<T>((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve as (value: unknown) => void);
      child.send({ id, kind } satisfies Request);
    });
  return {
    pid: child.pid!,
    report: () => ask<FloorReport>('report'),
    chainsDone: () => ask<number>('count'),
    async stop() {
      process.off('exit', killOnExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timeout = new Promise<boolean>((done) => setTimeout(() => done(false), 10_000).unref());
      if (!(await Promise.race([exited.then(() => true), timeout]))) {
        killOnExit();
        await exited;
      }
    },
  };
}

// ------------------------------------------------------------------------------------------------
// Child side.

async function child(): Promise<void> {
  const { run } = await import('graphile-worker');
  const { graphileLogger } = await import('../runner/graphile-logger');
  const pickups: number[] = [];
  const hops: number[] = [];
  let chainsDone = 0;
  const { runnerWorkerPreset } = await import('../runner/worker-preset');
  // The runner's worker settings as they are (runner/worker-preset.ts: 20 jobs at once, its pool, the local
  // queue, completions one by one); BENCH_FLOOR_BATCH_DELAY batches the floor's completions instead.
  const batchDelay = Number(process.env.BENCH_FLOOR_BATCH_DELAY ?? runnerWorkerPreset.worker.completeJobBatchDelay);
  const runner = await run({
    connectionString: process.env.DATABASE_URL,
    taskList: {
      [chainTask]: async (payload, helpers) => {
        const started = Date.now();
        const { n, t, single } = payload as ChainPayload;
        if (n === 1) pickups.push(started - t);
        else hops.push(started - t);
        if (single) return;
        if (n < chainLength) await helpers.addJob(chainTask, { n: n + 1, t: Date.now() } satisfies ChainPayload);
        else chainsDone += 1;
      },
    },
    logger: graphileLogger,
    noHandleSignals: true,
    preset: { worker: { ...runnerWorkerPreset.worker, completeJobBatchDelay: batchDelay, failJobBatchDelay: batchDelay } },
  });
  process.on('message', (message: Request) => {
    if (message.kind === 'count') {
      process.send!({ id: message.id, value: chainsDone });
      return;
    }
    process.send!({ id: message.id, value: { pickups: pickups.splice(0), hops: hops.splice(0), chainsDone } satisfies FloorReport });
  });
  const stop = () => void runner.stop().finally(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('disconnect', stop);
  process.send!({ ready: true });
  await runner.promise;
}

if (process.send && process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await child();

/** The floor's own database on the bench's server, dropped at the end unless BENCH_KEEP_DATABASE=1 keeps the bench's. */
export async function createFloorDatabase(client: pg.Client, databaseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const { rows } = await client.query<{ name: string }>('SELECT current_database() AS name');
  const name = `${rows[0].name}_floor`;
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await client.query(`CREATE DATABASE "${name}"`);
  const url = new URL(databaseUrl);
  url.pathname = `/${encodeURIComponent(name)}`;
  return {
    url: url.toString(),
    async drop() {
      if (process.env.BENCH_KEEP_DATABASE === '1') return;
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
    },
  };
}
