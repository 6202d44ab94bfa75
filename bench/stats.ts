/** Latency samples and their summary. */
import os from 'node:os';

export class Samples {
  private values = new Float64Array(1 << 16);
  private size = 0;

  add(value: number): void {
    if (this.size === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.size++] = value;
  }

  addAll(other: Samples): void {
    for (let index = 0; index < other.size; index += 1) this.add(other.values[index]);
  }

  get count(): number {
    return this.size;
  }

  sorted(): Float64Array {
    return this.values.slice(0, this.size).sort();
  }
}

/** Nearest-rank percentile of sorted values (p in 0..100). */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

export function summarise(samples: Samples): LatencySummary {
  const sorted = samples.sorted();
  let total = 0;
  for (const value of sorted) total += value;
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1] : Number.NaN,
    mean: sorted.length ? total / sorted.length : Number.NaN,
  };
}

/** Counts by status code, `error` for transport failures. */
export type StatusCounts = Map<string, number>;

export function countStatus(counts: StatusCounts, status: string): void {
  counts.set(status, (counts.get(status) ?? 0) + 1);
}

export function addCounts(into: StatusCounts, from: StatusCounts): void {
  for (const [status, count] of from) into.set(status, (into.get(status) ?? 0) + count);
}

export function nonOk(counts: StatusCounts): number {
  let total = 0;
  for (const [status, count] of counts) if (status !== '200') total += count;
  return total;
}

export function describeCounts(counts: StatusCounts): string {
  return [...counts.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, count]) => `${status}×${count}`)
    .join(' ');
}

/** A figure for a table cell: `digits` decimals, `-` when it is not a number. */
export const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

/** p50, p95 and max of a list of durations. */
export function spread(values: number[]) {
  const sorted = Float64Array.from(values).sort();
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted[sorted.length - 1] ?? Number.NaN };
}

/** Rows as aligned text lines: the first column left-aligned, the others right-aligned. */
export function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  '));
}

/** The route-vs-floor summary of the list benches: each side's p50/p95/max and their ratios. */
export function routeFloorTable(routeMs: number[], floorMs: number[]): { lines: string[]; route: ReturnType<typeof spread>; floor: ReturnType<typeof spread> } {
  const route = spread(routeMs);
  const floor = spread(floorMs);
  const lines = table([
    ['', 'samples', 'p50 ms', 'p95 ms', 'max ms'],
    ['route: handleRestRequest, API key', String(routeMs.length), fixed(route.p50), fixed(route.p95), fixed(route.max)],
    ['floor: same SQL on bare pg', String(floorMs.length), fixed(floor.p50), fixed(floor.p95), fixed(floor.max)],
    ['route / floor', '', `${fixed(route.p50 / floor.p50, 2)}×`, `${fixed(route.p95 / floor.p95, 2)}×`, ''],
  ]);
  return { lines, route, floor };
}

export interface RouteFloorRun<Shape extends { name: string }> {
  shapes: readonly Shape[];
  /** Passes over every shape; route and floor alternate which goes first, so neither always meets a warm cache. */
  passes: number;
  route: (shape: Shape) => Promise<unknown>;
  floor: (shape: Shape) => Promise<unknown>;
  targets: { p95Ms: number; ratio: number };
  log: (line: string) => void;
}

/**
 * Times a list route against its floor (the same statements on bare pg), one request at a time, and
 * logs the overall and per-shape figures with PASS/MISS against the targets (information, never an
 * exit code: machines are noisy).
 */
/** What a route-vs-floor section reports (ms). */
export interface RouteFloorResult {
  routeP95: number;
  floorP95: number;
  routeP50: number;
  floorP50: number;
}

export async function measureRouteVsFloor<Shape extends { name: string }>(run: RouteFloorRun<Shape>): Promise<RouteFloorResult> {
  const routeMs: number[] = [];
  const floorMs: number[] = [];
  const perShape = new Map<string, { route: number[]; floor: number[] }>(run.shapes.map((shape) => [shape.name, { route: [], floor: [] }]));
  const started = performance.now();
  for (let round = 0; round < run.passes; round += 1) {
    for (const [index, shape] of run.shapes.entries()) {
      const order = (index + round) % 2 === 0 ? (['route', 'floor'] as const) : (['floor', 'route'] as const);
      for (const side of order) {
        const t0 = performance.now();
        await (side === 'route' ? run.route(shape) : run.floor(shape));
        const ms = performance.now() - t0;
        (side === 'route' ? routeMs : floorMs).push(ms);
        perShape.get(shape.name)![side].push(ms);
      }
    }
  }
  const elapsed = performance.now() - started;
  const { lines, route: r, floor: f } = routeFloorTable(routeMs, floorMs);
  for (const line of lines) run.log(line);
  run.log('  per shape (route / floor, ms):');
  for (const line of table([
    ['  shape', 'route p50', 'p95', 'floor p50', 'p95', 'p50 ratio'],
    ...run.shapes.map((shape) => {
      const times = perShape.get(shape.name)!;
      const routeSummary = spread(times.route);
      const floorSummary = spread(times.floor);
      return [`  ${shape.name}`, fixed(routeSummary.p50), fixed(routeSummary.p95), fixed(floorSummary.p50), fixed(floorSummary.p95), `${fixed(routeSummary.p50 / floorSummary.p50, 2)}×`];
    }),
  ]))
    run.log(line);
  run.log(`  ${run.passes} passes × ${run.shapes.length} shapes, one request at a time, in ${fixed(elapsed / 1000)} s; load average ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}`);
  run.log(`  ${r.p95 < run.targets.p95Ms ? 'PASS' : 'MISS'}  route p95 < ${run.targets.p95Ms} ms: ${fixed(r.p95)} ms`);
  run.log(`  ${r.p95 / f.p95 <= run.targets.ratio ? 'PASS' : 'MISS'}  route / floor p95 ≤ ${run.targets.ratio}: ${fixed(r.p95 / f.p95, 2)}× (p50 ${fixed(r.p50 / f.p50, 2)}×; timing is noisy: information, not an exit code)`);
  return { routeP95: r.p95, floorP95: f.p95, routeP50: r.p50, floorP50: f.p50 };
}
