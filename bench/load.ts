/**
 * Load generators. Both rotate through prebuilt requests (one per API key) round-robin.
 *
 * - closed loop: `concurrency` connections, each sends its next request as soon as the previous
 *   answer arrives; latency = send → last byte. Throughput is what the server sustains.
 * - open loop: requests are due at a fixed rate whatever the server does; latency = due time →
 *   last byte, so a stall delays every request due during it (no coordinated omission). Extra
 *   connections are opened when all are busy.
 */
import { HttpConnection } from './http-client';
import { addCounts, countStatus, Samples, type StatusCounts } from './stats';

export class Rotation {
  private index = 0;
  /** Requests sent with each entry, over the whole run. */
  readonly sent: Uint32Array;

  constructor(private readonly requests: Buffer[]) {
    if (requests.length === 0) throw new Error('no requests to rotate');
    this.sent = new Uint32Array(requests.length);
  }

  next(): Buffer {
    const index = this.index;
    this.index = index + 1 === this.requests.length ? 0 : index + 1;
    this.sent[index] += 1;
    return this.requests[index];
  }

  maxSent(): number {
    let max = 0;
    for (const value of this.sent) if (value > max) max = value;
    return max;
  }
}

export interface LoadResult {
  /** Responses completed inside the measurement window. */
  completed: number;
  /** Measurement window, ms. */
  elapsedMs: number;
  rps: number;
  latencies: Samples;
  statuses: StatusCounts;
  /** Every response of the call, warm-up included (database write counts cover the whole call). */
  total: number;
  totalStatuses: StatusCounts;
  /** Open loop only: the most requests in flight at once, and how late the scheduler ran at worst. */
  maxInFlight?: number;
  maxSchedulerLagMs?: number;
}

const now = () => performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function closedLoop(options: {
  port: number;
  rotation: Rotation;
  concurrency: number;
  warmupMs: number;
  durationMs: number;
}): Promise<LoadResult> {
  const { port, rotation, concurrency, warmupMs, durationMs } = options;
  const latencies = new Samples();
  const statuses: StatusCounts = new Map();
  const connections = Array.from({ length: concurrency }, () => new HttpConnection(port));
  const start = now();
  const measureFrom = start + warmupMs;
  const measureTo = measureFrom + durationMs;
  let completed = 0;
  let total = 0;
  const totalStatuses: StatusCounts = new Map();

  const worker = async (connection: HttpConnection) => {
    while (now() < measureTo) {
      const request = rotation.next();
      const sentAt = now();
      let status: string;
      try {
        status = String((await connection.send(request)).status);
      } catch {
        status = 'error';
        await sleep(10); // a refused connection would otherwise spin
      }
      const doneAt = now();
      total += 1;
      countStatus(totalStatuses, status);
      if (sentAt >= measureFrom && doneAt <= measureTo) {
        completed += 1;
        latencies.add(doneAt - sentAt);
        countStatus(statuses, status);
      } else if (doneAt > measureFrom && doneAt <= measureTo) {
        // Started during warm-up, finished in the window: counts for throughput only.
        completed += 1;
        countStatus(statuses, status);
      }
    }
  };
  try {
    await Promise.all(connections.map(worker));
  } finally {
    for (const connection of connections) connection.close();
  }
  return { completed, elapsedMs: durationMs, rps: (completed / durationMs) * 1000, latencies, statuses, total, totalStatuses };
}

/** `concurrency` connections each sending `requestsPerConnection` copies of one request. */
export async function closedLoopFixed(options: {
  port: number;
  request: Buffer;
  concurrency: number;
  requestsPerConnection: number;
}): Promise<StatusCounts> {
  const statuses: StatusCounts = new Map();
  const connections = Array.from({ length: options.concurrency }, () => new HttpConnection(options.port));
  try {
    await Promise.all(
      connections.map(async (connection) => {
        for (let index = 0; index < options.requestsPerConnection; index += 1) {
          const status = await connection.send(options.request).then(
            (result) => String(result.status),
            () => 'error',
          );
          countStatus(statuses, status);
        }
      }),
    );
  } finally {
    for (const connection of connections) connection.close();
  }
  return statuses;
}

export async function openLoop(options: {
  port: number;
  rotation: Rotation;
  ratePerSecond: number;
  durationMs: number;
  /** Connections opened before the first request. */
  initialConnections?: number;
  /** Give up on stragglers after this long once the schedule is over. */
  drainTimeoutMs?: number;
}): Promise<LoadResult> {
  const { port, rotation, ratePerSecond, durationMs } = options;
  const interval = 1000 / ratePerSecond;
  const total = Math.round((durationMs / 1000) * ratePerSecond);
  const latencies = new Samples();
  const statuses: StatusCounts = new Map();
  const idle: HttpConnection[] = Array.from({ length: options.initialConnections ?? 8 }, () => new HttpConnection(port));
  const all = [...idle];
  let inFlight = 0;
  let maxInFlight = 0;
  let maxSchedulerLagMs = 0;
  let finished = 0;
  let completed = 0;
  let allDone: () => void = () => {};
  const done = new Promise<void>((resolve) => (allDone = resolve));

  const fire = (dueAt: number) => {
    const connection = idle.pop() ?? new HttpConnection(port);
    if (!all.includes(connection)) all.push(connection);
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    // Fire and forget: the request's outcome is counted below, whatever it is (its own errors become 'error').
    void connection
      .send(rotation.next())
      .then(
        (result) => String(result.status),
        () => 'error',
      )
      .then((status) => {
        inFlight -= 1;
        idle.push(connection);
        completed += 1;
        latencies.add(now() - dueAt);
        countStatus(statuses, status);
        finished += 1;
        if (finished === total) allDone();
      });
  };

  const start = now() + 20;
  let sent = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const current = now();
      while (sent < total) {
        const dueAt = start + sent * interval;
        if (dueAt > current) break;
        maxSchedulerLagMs = Math.max(maxSchedulerLagMs, current - dueAt);
        fire(dueAt);
        sent += 1;
      }
      if (sent >= total) {
        resolve();
        return;
      }
      setTimeout(tick, Math.max(0, start + sent * interval - now() - 0.5));
    };
    setTimeout(tick, 20);
  });
  const drained = await Promise.race([done.then(() => true), sleep(options.drainTimeoutMs ?? 15_000).then(() => false)]);
  for (const connection of all) connection.close();
  if (!drained) statuses.set('timeout', total - finished);
  const elapsedMs = durationMs;
  return {
    completed,
    elapsedMs,
    rps: (completed / elapsedMs) * 1000,
    latencies,
    statuses,
    total: finished,
    totalStatuses: statuses,
    maxInFlight,
    maxSchedulerLagMs,
  };
}

/** Several slices of the same load as one result (req/s over their summed windows). */
export function mergeLoads(results: LoadResult[]): LoadResult {
  const merged: LoadResult = {
    completed: 0,
    elapsedMs: 0,
    rps: 0,
    latencies: new Samples(),
    statuses: new Map(),
    total: 0,
    totalStatuses: new Map(),
  };
  for (const result of results) {
    merged.completed += result.completed;
    merged.elapsedMs += result.elapsedMs;
    merged.total += result.total;
    merged.latencies.addAll(result.latencies);
    addCounts(merged.statuses, result.statuses);
    addCounts(merged.totalStatuses, result.totalStatuses);
    if (result.maxInFlight !== undefined) merged.maxInFlight = Math.max(merged.maxInFlight ?? 0, result.maxInFlight);
    if (result.maxSchedulerLagMs !== undefined) merged.maxSchedulerLagMs = Math.max(merged.maxSchedulerLagMs ?? 0, result.maxSchedulerLagMs);
  }
  merged.rps = merged.elapsedMs > 0 ? (merged.completed / merged.elapsedMs) * 1000 : Number.NaN;
  return merged;
}
