/**
 * Small helpers both provider adapters use: bounded parallel fetching, the header block of a message
 * too large to fetch whole, and the date arithmetic of search windows. Pure except `mapLimit`.
 */

/** Runs `work` over `items` with at most `limit` at once, answers in input order; the first failure rejects. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const lanes = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (!failed && next < items.length) {
      const index = next;
      next += 1;
      try {
        results[index] = await work(items[index], index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  });
  await Promise.all(lanes);
  return results;
}

const headerName = /^[!-9;-~]{1,76}$/;

/**
 * An RFC 5322 header block from name/value pairs (Gmail `payload.headers`, Graph
 * `internetMessageHeaders`), for a message ingested header-only (`sourceComplete: false`). Names that
 * are not header names are dropped, line breaks inside values are folded away, and the block is cut at
 * `maxBytes`.
 */
export function headerBlock(headers: readonly { name?: unknown; value?: unknown }[], maxBytes = 256 * 1024): Buffer {
  const lines: string[] = [];
  let size = 2;
  for (const header of headers) {
    if (typeof header.name !== 'string' || typeof header.value !== 'string' || !headerName.test(header.name)) continue;
    const line = `${header.name}: ${header.value.replace(/\r?\n[ \t]*/g, ' ').replace(/[\r\n]/g, ' ')}\r\n`;
    size += Buffer.byteLength(line);
    if (size > maxBytes) break;
    lines.push(line);
  }
  return Buffer.from(`${lines.join('')}\r\n`, 'utf8');
}

/** Whole seconds since the epoch (Gmail's `after:`/`before:` take seconds). */
export function epochSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

/** A signal's abort as an Error to throw (its reason when it is one). */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error('The operation was aborted.');
}

/** Waits `ms`; rejects with the signal's reason as soon as it aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    // Aborted while the caller was busy (a statement on its way): an aborted signal fires no more events.
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
