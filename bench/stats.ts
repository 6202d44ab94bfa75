/** Latency samples and their summary. */

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
