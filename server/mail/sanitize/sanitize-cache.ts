/**
 * Least-recently-used memory of sanitised bodies, bounded in bytes rather than entries (one mail is
 * 2 KB, another 2 MB). Process-local; the spec's "never stored" is about the database: this only
 * spares the threads the same work when a message is shown again. Values are weighed as UTF-16
 * (2 bytes per code unit) plus a fixed overhead; an entry heavier than an eighth of the budget is
 * not kept, so one huge body cannot empty the cache.
 */

const entryOverheadBytes = 128;

export class ByteBudgetLru<V> {
  /** Map order is recency order: the first key is the least recently used. */
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private used = 0;

  constructor(
    readonly budgetBytes: number,
    private readonly weigh: (value: V) => number,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    const bytes = this.weigh(value) + key.length * 2 + entryOverheadBytes;
    this.delete(key);
    if (bytes > this.budgetBytes / 8) return;
    this.entries.set(key, { value, bytes });
    this.used += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.used <= this.budgetBytes) break;
      this.entries.delete(oldest);
      this.used -= entry.bytes;
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.used -= entry.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.used = 0;
  }

  stats(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.used };
  }
}
