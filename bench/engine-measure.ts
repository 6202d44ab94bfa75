/**
 * The engine bench's measuring tools (bench/engine.ts): quantiles and tables, the database counters
 * around a slice, the throughput feeder that keeps runs in flight, the per-step overheads read from
 * step rows, the webhook loop's latencies.
 */
import pg from 'pg';
import { cpuBetween, sampleCpu, type CpuUse } from './cpu';
import { percentile } from './stats';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function quantiles(values: number[]) {
  const sorted = Float64Array.from(values).sort();
  return { count: sorted.length, p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] ?? Number.NaN };
}

export interface Target {
  name: string;
  /** Runs queued or running now. */
  inflight(): Promise<number>;
  /** Starts `count` runs in one transaction. */
  start(count: number): Promise<void>;
  /** What the runs in flight are waiting for, for an error message. */
  diagnose?(): Promise<string>;
  /** Called when the measured window opens and when it closes (before the drain). */
  windowStart?(): Promise<void>;
  windowEnd?(): Promise<void>;
  /** Runs completed in the window. */
  completed(since: Date, until: Date): Promise<number>;
  pid(): number;
}

export interface DbCounters {
  commits: number;
  jobsAdded: number;
  wal: string;
}

/**
 * WAL flushes made by client backends (PostgreSQL 18's pg_stat_io: durable commits that waited, several sharing one
 * flush under load; the bench's own read-only polls make none), graphile jobs added, and the WAL position. Backends
 * publish these counters within about a second.
 */
export async function dbCounters(client: pg.Client): Promise<DbCounters> {
  await client.query('SELECT pg_stat_clear_snapshot()');
  // Before PostgreSQL 18 (BENCH_DATABASE_URL) there is no pg_stat_io: the flushes then read 0.
  const hasStatIo = (await client.query<{ found: boolean }>(`SELECT to_regclass('pg_catalog.pg_stat_io') IS NOT NULL AS found`)).rows[0].found;
  const flushes = hasStatIo ? `(SELECT coalesce(sum(fsyncs), 0) FROM pg_stat_io WHERE object = 'wal' AND backend_type = 'client backend')` : '0';
  const { rows } = await client.query<{ commits: string; jobs: string | null; wal: string }>(
    `SELECT ${flushes}::text AS commits,
            (SELECT n_tup_ins FROM pg_stat_all_tables WHERE schemaname = 'graphile_worker' AND relname = '_private_jobs')::text AS jobs,
            pg_current_wal_lsn()::text AS wal`,
  );
  return { commits: Number(rows[0].commits), jobsAdded: Number(rows[0].jobs ?? 0), wal: rows[0].wal };
}

export interface ThroughputSlice {
  target: string;
  /** Runs started over the whole slice (warm-up, window and drain), and the database work over the same span. */
  started: number;
  commits: number;
  jobsAdded: number;
  walBytes: number;
  completed: number;
  seconds: number;
  perSecond: number;
  from: Date;
  to: Date;
  cpu: CpuUse;
}

/**
 * Keeps about `inflight` runs queued or running (topping up every 20 ms in one transaction), `warmupMs` first,
 * then counts the runs completed over `durationMs`; then stops feeding and waits for the rest to finish.
 */
export async function feed(target: Target, options: { inflight: number; warmupMs: number; durationMs: number; postmasterPid: number | null; client: pg.Client }): Promise<ThroughputSlice> {
  const countersBefore = await dbCounters(options.client);
  let runsStarted = 0;
  const started = Date.now();
  let from: Date | null = null;
  let cpuBefore = sampleCpu(target.pid(), options.postmasterPid);
  for (;;) {
    const now = Date.now();
    if (!from && now - started >= options.warmupMs) {
      await target.windowStart?.();
      from = new Date(now);
      cpuBefore = sampleCpu(target.pid(), options.postmasterPid);
    }
    if (from && now - from.getTime() >= options.durationMs) break;
    const missing = options.inflight - (await target.inflight());
    if (missing > 0) {
      await target.start(missing);
      runsStarted += missing;
    }
    await sleep(20);
  }
  const to = new Date();
  await target.windowEnd?.();
  const cpu = cpuBetween(cpuBefore, sampleCpu(target.pid(), options.postmasterPid));
  const drainUntil = Date.now() + (Number(process.env.BENCH_ENGINE_DRAIN_SECONDS) || 120) * 1000;
  while ((await target.inflight()) > 0) {
    if (Date.now() > drainUntil) throw new Error(`${target.name}: runs still in flight two minutes after the feeding stopped${(await target.diagnose?.()) ?? ''}`);
    await sleep(100);
  }
  const completed = await target.completed(from!, to);
  const seconds = (to.getTime() - from!.getTime()) / 1000;
  await sleep(1_200); // busy backends publish their counters at most once a second
  const countersAfter = await dbCounters(options.client);
  const { rows } = await options.client.query<{ bytes: string }>('SELECT pg_wal_lsn_diff($1::pg_lsn, $2::pg_lsn)::text AS bytes', [countersAfter.wal, countersBefore.wal]);
  return {
    target: target.name,
    started: runsStarted,
    commits: countersAfter.commits - countersBefore.commits,
    jobsAdded: countersAfter.jobsAdded - countersBefore.jobsAdded,
    walBytes: Number(rows[0].bytes),
    completed,
    seconds,
    perSecond: completed / seconds,
    from: from!,
    to,
    cpu,
  };
}

/** Per-step overhead samples of the executions of `workflowId` finished in [from, to). */
/**
 * Runs each target a few seconds, then analyzes its database: the state of a running instance, whose tables
 * autovacuum analyzes as they grow (each minute at most). A bench database is a minute old when its rounds end and
 * was never analyzed: each connection's cached plan of a prepared statement was made against near-empty tables, and
 * the run's end read its steps by scanning all of `execution_steps` (1,901 sequential scans for 1,895 ends, 9 million
 * rows read, in one bench run), a cost no instance past its first minute pays. ANALYZE invalidates those plans.
 */
export async function settleAsAnInstance(targets: { target: Target; client: pg.Client }[], options: { inflight: number; postmasterPid: number | null }): Promise<void> {
  for (const { target, client } of targets) await feed(target, { inflight: options.inflight, warmupMs: 2_000, durationMs: 500, postmasterPid: options.postmasterPid, client });
  for (const { client } of targets) await client.query('ANALYZE');
}

export async function stepOverheads(client: pg.Client, workflowId: string, from: Date, to: Date) {
  const { rows } = await client.query<{
    execution_id: string;
    status: string;
    created_at: Date;
    e_started: Date;
    e_finished: Date;
    node_type: string;
    s_started: Date | null;
    s_finished: Date | null;
    duration_ms: number | null;
  }>(
    `SELECT e.id AS execution_id, e.status, e.created_at, e.started_at AS e_started, e.finished_at AS e_finished,
            s.node_type, s.started_at AS s_started, s.finished_at AS s_finished, s.duration_ms
       FROM executions e JOIN execution_steps s ON s.execution_id = e.id
      WHERE e.workflow_id = $1::uuid AND e.finished_at >= $2 AND e.finished_at < $3
      ORDER BY e.id, s.seq, s.started_at`,
    [workflowId, from, to],
  );
  const hops: number[] = [];
  const perExecution: number[] = [];
  const queueDelay: number[] = [];
  const httpMs: number[] = [];
  /** Execution startedAt → first step's startedAt, and last step's finishedAt → execution finishedAt. */
  const lead: number[] = [];
  const tail: number[] = [];
  const statuses = new Map<string, number>();
  let index = 0;
  while (index < rows.length) {
    const id = rows[index].execution_id;
    const steps = [];
    while (index < rows.length && rows[index].execution_id === id) steps.push(rows[index++]);
    const first = steps[0];
    statuses.set(first.status, (statuses.get(first.status) ?? 0) + 1);
    if (first.status !== 'succeeded') continue;
    queueDelay.push(first.e_started.getTime() - first.created_at.getTime());
    let http = 0;
    for (let step = 0; step < steps.length; step += 1) {
      const current = steps[step];
      const isHttp = current.node_type.startsWith('http.');
      if (isHttp) {
        http += current.duration_ms ?? 0;
        httpMs.push(current.duration_ms ?? 0);
      }
      if (step === 0 || !current.s_started || !steps[step - 1].s_finished) continue;
      hops.push(current.s_started.getTime() - steps[step - 1].s_finished!.getTime() + (isHttp ? 0 : (current.duration_ms ?? 0)));
    }
    perExecution.push((first.e_finished.getTime() - first.e_started.getTime() - http) / steps.length);
    if (first.s_started) lead.push(first.s_started.getTime() - first.e_started.getTime());
    const last = steps[steps.length - 1];
    if (last.s_finished) tail.push(first.e_finished.getTime() - last.s_finished.getTime());
  }
  return { hops, perExecution, queueDelay, httpMs, lead, tail, statuses, executions: perExecution.length, steps: rows.length };
}

/** The runner stopped taking jobs (its worker pool shut itself down); the message names why. */
export class RunnerStalled extends Error {
  constructor(
    message: string,
    readonly pid: number,
  ) {
    super(message);
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}


/** One webhook of the open loop: when it was due, when its answer came, and the run it started. */
export interface WebhookSend {
  scheduled: number;
  answered: number;
  status: number;
  executionId: string | null;
}

/**
 * Each started run's latency (its trigger step's start − the request's due time), the requests that started none, and
 * the slowest six named with the HTTP answer's share and when they were due (into the loop, the second of the
 * minute): a p99 of 500 is its five slowest, often one stall of one process, and this says which and when.
 */
export function webhookLatencies(sends: WebhookSend[], startedById: Map<string, Date | null>) {
  const timed: { latency: number; http: number; scheduled: number }[] = [];
  let missing = 0;
  for (const send of sends) {
    const started = send.executionId ? startedById.get(send.executionId) : null;
    if (started) timed.push({ latency: started.getTime() - send.scheduled, http: send.answered - send.scheduled, scheduled: send.scheduled });
    else missing += 1;
  }
  const loopStart = Math.min(...sends.map((send) => send.scheduled));
  const slowest = [...timed]
    .sort((a, b) => b.latency - a.latency)
    .slice(0, 6)
    .map((one) => `${one.latency} ms (HTTP ${one.http}) at +${((one.scheduled - loopStart) / 1000).toFixed(2)} s, :${new Date(one.scheduled).toISOString().slice(17, 23)}`)
    .join('; ');
  return { latencies: timed.map((one) => one.latency), missing, slowest };
}
