/** Bounds of one provider adapter's work; every field has its default below. */
export interface ProviderLimits {
  /** Messages per list page (Gmail allows 500, Graph 1000). Default 100. */
  pageSize: number;
  /** Gmail history records per page (at most 500) / Graph delta page size (`odata.maxpagesize`). Default 100. */
  deltaPageSize: number;
  /** Delta pages applied per folder (Graph) or per call (Gmail); the rest waits for the next call. Default 50. */
  maxDeltaPages: number;
  /** Largest source fetched whole at sync; larger messages are mirrored header-only. Default 25 MiB. */
  maxSourceBytes: number;
  /** Largest source `fetchContent` returns. Default 50 MiB. */
  maxContentBytes: number;
  /** Messages fetched at once. Default 4. */
  concurrency: number;
  /** One API exchange, body included. Default 60 s; content fetches get three times as long. */
  timeoutMs: number;
}

export const defaultProviderLimits: ProviderLimits = {
  pageSize: 100,
  deltaPageSize: 100,
  maxDeltaPages: 50,
  maxSourceBytes: 25 * 1024 * 1024,
  maxContentBytes: 50 * 1024 * 1024,
  concurrency: 4,
  timeoutMs: 60_000,
};

/** The defaults with `overrides`, each clamped to a sane range. */
export function providerLimits(overrides: Partial<ProviderLimits> = {}): ProviderLimits {
  const merged = { ...defaultProviderLimits, ...overrides };
  const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, Math.trunc(value)));
  return {
    pageSize: clamp(merged.pageSize, 1, 500),
    deltaPageSize: clamp(merged.deltaPageSize, 1, 500),
    maxDeltaPages: clamp(merged.maxDeltaPages, 1, 10_000),
    maxSourceBytes: clamp(merged.maxSourceBytes, 1024, 150 * 1024 * 1024),
    maxContentBytes: clamp(merged.maxContentBytes, 1024, 150 * 1024 * 1024),
    concurrency: clamp(merged.concurrency, 1, 16),
    timeoutMs: clamp(merged.timeoutMs, 1000, 600_000),
  };
}
