/**
 * The webhook burst of the engine bench (issue 25 §1: "a burst must not starve the runs"): `connections` clients post
 * webhook calls back to back for `seconds` on the production web process while the runner runs, then the backlog
 * drains. What it answers: how many runs the engine still finishes per second while the web process accepts as
 * much as it can, against the engine's saturated throughput measured in the same run, and how long the backlog then
 * takes to drain. The CPU split between the processes during the burst says who took the machine.
 */
import type pg from 'pg';
import type { ThroughputSlice } from './engine-measure';
import { benchWorkflowSlots } from './engine-settings';
import { HttpConnection } from './http-client';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface BurstFigures {
  seconds: number;
  connections: number;
  accepted: number;
  statuses: Map<string, number>;
  /** Runs of the workflow that finished while the burst lasted, per second. */
  finishedPerSecondDuring: number;
  /** From the burst's end to the last accepted run's end. */
  drainSeconds: number;
  finishedPerSecondDraining: number;
  /** Accepted runs still unfinished when the drain gave up. */
  unfinished: number;
  /** CPU ms per second of the burst in each process (1000 = one core). */
  cpuPerSecond: { web: number; runner: number; pg: number };
  /**
   * CPU ms per accepted run in each process from the burst's start to the end of its drain: the issue's own measure
   * of a run's cost end to end (16 connections, then the drain: 53 ms when it was filed).
   */
  cpuPerRun: { web: number; runner: number; pg: number };
  /** The index of the next call's request (each call its own client address across bursts). */
  nextIndex: number;
}

type BurstOptions = Parameters<typeof measureBurst>[0];

/** `count` bursts one after the other, each starting once the one before has drained. */
export async function measureBursts(options: BurstOptions & { count: number }): Promise<BurstFigures[]> {
  const bursts: BurstFigures[] = [];
  let firstIndex = options.firstIndex;
  for (let round = 0; round < options.count; round += 1) {
    const burst = await measureBurst({ ...options, firstIndex });
    bursts.push(burst);
    firstIndex = burst.nextIndex;
  }
  return bursts;
}

export async function measureBurst(options: {
  port: number;
  /** The request for the index-th call (each its own client address, so the per-address limit is not measured). */
  requestBytes: (index: number) => Buffer;
  firstIndex: number;
  client: pg.Client;
  workflowId: string;
  seconds: number;
  connections: number;
  /** Throws when the runner stopped taking jobs. */
  checkRunner: () => void;
  /** Cumulative CPU ms of each process a run goes through. */
  cpu: () => { web: number; runner: number; pg: number };
}): Promise<BurstFigures> {
  const { client, workflowId } = options;
  const statuses = new Map<string, number>();
  const accepted: string[] = [];
  let next = options.firstIndex;
  const from = new Date();
  const cpuFrom = options.cpu();
  const deadline = Date.now() + options.seconds * 1000;
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      const connection = new HttpConnection(options.port);
      try {
        while (Date.now() < deadline) {
          const result = await connection.send(options.requestBytes(next++), true).catch(() => ({ status: 0, body: undefined }));
          statuses.set(String(result.status), (statuses.get(String(result.status)) ?? 0) + 1);
          if (result.status !== 202) continue;
          try {
            accepted.push((JSON.parse(result.body!.toString('utf8')) as { executionId: string }).executionId);
          } catch {
            // counted in the statuses; not a run to wait for
          }
        }
      } finally {
        connection.close();
      }
    }),
  );
  const to = new Date();
  const cpuTo = options.cpu();
  const burstSeconds = (to.getTime() - from.getTime()) / 1000;
  const finishedBetween = async (start: Date, end: Date) =>
    (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM executions WHERE workflow_id = $1::uuid AND finished_at >= $2 AND finished_at < $3`, [workflowId, start, end])).rows[0].n;
  const during = await finishedBetween(from, to);

  let unfinished = accepted.length;
  for (const drainDeadline = Date.now() + 180_000; Date.now() < drainDeadline; await sleep(250)) {
    options.checkRunner();
    unfinished = (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM executions WHERE id = ANY($1::uuid[]) AND finished_at IS NULL`, [accepted])).rows[0].n;
    if (unfinished === 0) break;
  }
  const cpuDrained = options.cpu();
  const { rows } = await client.query<{ last: Date | null }>(`SELECT max(finished_at) AS last FROM executions WHERE id = ANY($1::uuid[])`, [accepted]);
  const drainEnd = rows[0].last && rows[0].last > to ? rows[0].last : to;
  const drainSeconds = (drainEnd.getTime() - to.getTime()) / 1000;
  const draining = drainSeconds > 0 ? await finishedBetween(to, new Date(drainEnd.getTime() + 1)) : 0;
  return {
    seconds: burstSeconds,
    connections: options.connections,
    accepted: accepted.length,
    statuses,
    finishedPerSecondDuring: during / burstSeconds,
    drainSeconds,
    finishedPerSecondDraining: drainSeconds > 0 ? draining / drainSeconds : 0,
    unfinished,
    nextIndex: next,
    cpuPerSecond: {
      web: (cpuTo.web - cpuFrom.web) / burstSeconds,
      runner: (cpuTo.runner - cpuFrom.runner) / burstSeconds,
      pg: (cpuTo.pg - cpuFrom.pg) / burstSeconds,
    },
    cpuPerRun: {
      web: (cpuDrained.web - cpuFrom.web) / accepted.length,
      runner: (cpuDrained.runner - cpuFrom.runner) / accepted.length,
      pg: (cpuDrained.pg - cpuFrom.pg) / accepted.length,
    },
  };
}

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

function saturatedRunsPerSecondOf(slices: readonly ThroughputSlice[]): number {
  const engine = slices.filter((slice) => slice.target === 'engine');
  return engine.reduce((sum, slice) => sum + slice.completed, 0) / engine.reduce((sum, slice) => sum + slice.seconds, 0);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Every burst's lines, then, for several, the medians of the two figures the issue asks about. */
export function burstsLines(bursts: readonly BurstFigures[], slices: readonly ThroughputSlice[]): string[] {
  const lines = bursts.flatMap((burst, index) => [...(bursts.length > 1 ? [`  burst ${index + 1}/${bursts.length}`] : []), ...burstLines(burst, slices)]);
  if (bursts.length < 2) return lines;
  const cpu = bursts.map((burst) => burst.cpuPerRun.web + burst.cpuPerRun.runner + burst.cpuPerRun.pg);
  const finishing = bursts.map((burst) => burst.finishedPerSecondDuring / saturatedRunsPerSecondOf(slices));
  return [
    ...lines,
    `  median of the ${bursts.length} bursts: CPU per accepted run ${fixed(median(cpu))} ms (${cpu.map((value) => fixed(value)).join(', ')}; ≤ 10 ms asked); ` +
      `runs finished during a burst ${fixed(median(finishing), 2)}× saturated (${finishing.map((value) => fixed(value, 2)).join(', ')}; 1.0× asked)`,
  ];
}

/**
 * The issue's other burst: one with the workflow at its default slots (10: 2.7 runs/s finished while calls arrived
 * when the issue was filed, 18.9/s after), then back at the bench's own (benchWorkflowSlots). With fewer slots than the
 * instance's cap, a backlog forms and every admission of the full workflow is paid by the runs waiting in it.
 */
export async function defaultSlotsBurstLines(
  options: BurstOptions & { setSlots: (slots: number | null) => Promise<void>; slices: readonly ThroughputSlice[] },
): Promise<string[]> {
  const { setSlots, slices, ...burstOptions } = options;
  const { effectiveLimits } = await import('../server/engine/contract/limits');
  const defaultSlots = effectiveLimits({ maxConcurrency: null, executionTimeoutMs: null }).maxConcurrency;
  await setSlots(null);
  const burst = await measureBurst(burstOptions);
  await setSlots(benchWorkflowSlots);
  return [`  at the workflow's default ${defaultSlots} slots:`, ...burstsLines([burst], slices)];
}

/** The burst's lines of the report, next to the engine's saturated throughput of the same run (its rounds' slices). */
function burstLines(burst: BurstFigures, slices: readonly ThroughputSlice[]): string[] {
  const saturatedRunsPerSecond = saturatedRunsPerSecondOf(slices);
  const statuses = [...burst.statuses].map(([status, count]) => `${status}×${count}`).join(' ');
  const cpu = burst.cpuPerSecond;
  const perRun = burst.cpuPerRun;
  return [
    `  webhook burst: ${burst.connections} connections back to back for ${fixed(burst.seconds)} s: ${burst.accepted} runs accepted (${fixed(burst.accepted / burst.seconds)}/s; answers ${statuses})`,
    `    runs finished during the burst ${fixed(burst.finishedPerSecondDuring)}/s against the engine's saturated ${fixed(saturatedRunsPerSecond)}/s above: ` +
      `${fixed(burst.finishedPerSecondDuring / saturatedRunsPerSecond, 2)}× (the issue: the engine keeps finishing runs at its capacity while the web accepts a burst)`,
    `    then the backlog drained in ${fixed(burst.drainSeconds)} s at ${fixed(burst.finishedPerSecondDraining)} runs/s${burst.unfinished ? `; ${burst.unfinished} accepted runs still unfinished after 180 s` : ''}`,
    `    CPU during the burst, of one core per second: web ${fixed(cpu.web / 10, 0)} %, runner ${fixed(cpu.runner / 10, 0)} %, PostgreSQL ${fixed(cpu.pg / 10, 0)} %`,
    `    CPU per accepted run over the burst and its drain (the issue's measure, 53 ms when filed; ≤ 10 ms asked): ${fixed(perRun.web + perRun.runner + perRun.pg)} ms ` +
      `(web ${fixed(perRun.web)} + runner ${fixed(perRun.runner)} + PostgreSQL ${fixed(perRun.pg)})`,
  ];
}
