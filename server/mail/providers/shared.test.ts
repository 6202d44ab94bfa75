import { describe, expect, it } from 'vitest';
import { abortableSleep, headerBlock, mapLimit } from './shared';

describe('headerBlock', () => {
  it('writes an RFC 5322 header block, dropping what is not a header and folding line breaks away', () => {
    const block = headerBlock([
      { name: 'Subject', value: 'Hello\r\n there' },
      { name: 'From', value: 'Alice <alice@example.test>' },
      { name: 'Bad Name', value: 'x' },
      { name: 'X-Injected', value: 'a\r\nBcc: victim@example.test' },
      { name: 42, value: 'x' },
    ]);
    expect(block.toString()).toBe('Subject: Hello there\r\nFrom: Alice <alice@example.test>\r\nX-Injected: a Bcc: victim@example.test\r\n\r\n');
  });

  it('stops at its byte bound', () => {
    const headers = Array.from({ length: 100 }, (_, index) => ({ name: `X-H${index}`, value: 'v'.repeat(100) }));
    expect(headerBlock(headers, 1000).length).toBeLessThanOrEqual(1000);
  });
});

describe('mapLimit', () => {
  it('keeps input order and never runs more than the limit at once', async () => {
    let running = 0;
    let peak = 0;
    const results = await mapLimit([5, 1, 4, 2, 3], 2, async (value) => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, value));
      running -= 1;
      return value * 10;
    });
    expect(results).toEqual([50, 10, 40, 20, 30]);
    expect(peak).toBe(2);
  });

  it('rejects with the first failure', async () => {
    await expect(mapLimit([1, 2, 3], 2, (value) => (value === 2 ? Promise.reject(new Error('two')) : Promise.resolve(value)))).rejects.toThrow('two');
  });
});

describe('abortableSleep', () => {
  it('waits its time, and rejects with the reason when the signal aborts meanwhile', async () => {
    const started = Date.now();
    await abortableSleep(30);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    const cancel = new AbortController();
    const sleeping = abortableSleep(60_000, cancel.signal);
    cancel.abort(new Error('lease lost'));
    await expect(sleeping).rejects.toThrow('lease lost');
  });

  it('rejects at once for a signal that aborted before the sleep began (an aborted signal fires no event)', async () => {
    const cancel = new AbortController();
    cancel.abort(new Error('shutting down'));
    const started = Date.now();
    await expect(abortableSleep(60_000, cancel.signal)).rejects.toThrow('shutting down');
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
