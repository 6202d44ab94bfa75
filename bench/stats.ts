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
