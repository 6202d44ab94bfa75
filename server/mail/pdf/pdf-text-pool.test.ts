import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { flateBombPdf, invoicePdfLines, minimalPdf } from '../../testing/pdf-fixtures';
import { closePdfPool, overridePdfPoolForTests, pdfTextInPool } from './pdf-text-pool';

const limits = { maxPages: 20, maxChars: 32_000 };
const bytesOf = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));

beforeEach(async () => {
  await closePdfPool();
});
afterEach(async () => {
  overridePdfPoolForTests({});
  await closePdfPool();
});

describe('pdfTextInPool: real PDFs', () => {
  it('reads the text of a PDF, line by line, on a worker thread', async () => {
    const result = await pdfTextInPool(new Uint8Array(minimalPdf([invoicePdfLines, ['Page two: thank you']])), limits);
    expect(result).toEqual({ ok: true, text: `${invoicePdfLines.join('\n')}\n\nPage two: thank you`, pagesRead: 2, totalPages: 2, truncated: false });
  });

  it('reads the first pages only, and at most the characters asked for', async () => {
    const pages = Array.from({ length: 60 }, (_, index) => [`Page ${index + 1}`, 'x'.repeat(200)]);
    const paged = await pdfTextInPool(new Uint8Array(minimalPdf(pages)), { maxPages: 20, maxChars: 100_000 });
    expect(paged).toMatchObject({ ok: true, pagesRead: 20, totalPages: 60, truncated: true });
    expect(paged.ok && paged.text).toContain('Page 20');
    expect(paged.ok && paged.text).not.toContain('Page 21');
    const cut = await pdfTextInPool(new Uint8Array(minimalPdf(pages)), { maxPages: 20, maxChars: 500 });
    expect(cut).toMatchObject({ ok: true, truncated: true });
    expect(cut.ok && cut.text.length).toBe(500);
  });

  it('answers a note for a PDF that asks for a password, and for bytes that are not a PDF', async () => {
    await expect(pdfTextInPool(new Uint8Array(minimalPdf([invoicePdfLines], { encrypted: true })), limits)).resolves.toEqual({
      ok: false,
      reason: 'encrypted',
      message: 'it is protected by a password',
    });
    await expect(pdfTextInPool(bytesOf('%PDF-1.4\nthis is not a document'), limits)).resolves.toMatchObject({ ok: false, reason: 'invalid' });
    const cutShort = minimalPdf([invoicePdfLines]).subarray(0, 300);
    await expect(pdfTextInPool(new Uint8Array(cutShort), limits)).resolves.toMatchObject({ ok: false });
    // The thread survived them all.
    await expect(pdfTextInPool(new Uint8Array(minimalPdf([['still here']])), limits)).resolves.toMatchObject({ ok: true, text: 'still here' });
  });

  it('stops a compression bomb by its buffer budget; the next document is read', async () => {
    overridePdfPoolForTests({ bufferMb: 160 });
    const bomb = await flateBombPdf(1_024);
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const before = process.memoryUsage.rss();
    await expect(pdfTextInPool(new Uint8Array(bomb), limits)).resolves.toEqual({ ok: false, reason: 'memory', message: 'reading it needed too much memory' });
    await expect(pdfTextInPool(new Uint8Array(minimalPdf([['after the bomb']])), limits)).resolves.toMatchObject({ ok: true, text: 'after the bomb' });
    // The thread's buffers went with it (1 GB had it read on).
    expect(process.memoryUsage.rss() - before).toBeLessThan(400 * 1024 * 1024);
  }, 60_000);
});

describe('pdfTextInPool: a document that misbehaves in its thread', () => {
  const misbehaving = fileURLToPath(new URL('./fixtures/misbehaving-worker.mjs', import.meta.url));

  it('is given up at the time limit; its thread is replaced', async () => {
    overridePdfPoolForTests({ workerFile: misbehaving, timeoutMs: 1_000 });
    await expect(pdfTextInPool(bytesOf('spin'), limits)).resolves.toEqual({ ok: false, reason: 'timeout', message: 'reading it took too long' });
    await expect(pdfTextInPool(bytesOf('next'), limits)).resolves.toMatchObject({ ok: true, text: 'read 4 bytes' });
  });

  it('is given up when it exhausts the thread’s heap; its thread is replaced', async () => {
    overridePdfPoolForTests({ workerFile: misbehaving, heapMb: 32 });
    await expect(pdfTextInPool(bytesOf('exhaust'), limits)).resolves.toEqual({ ok: false, reason: 'memory', message: 'reading it needed too much memory' });
    await expect(pdfTextInPool(bytesOf('next'), limits)).resolves.toMatchObject({ ok: true });
  });

  it('a thread that fails for another reason (a bug) still answers a note', async () => {
    overridePdfPoolForTests({ workerFile: misbehaving });
    await expect(pdfTextInPool(bytesOf('throw'), limits)).resolves.toEqual({ ok: false, reason: 'unreadable', message: 'the PDF reader stopped' });
    await expect(pdfTextInPool(bytesOf('next'), limits)).resolves.toMatchObject({ ok: true });
  });

  it('reads one document at a time and refuses beyond the waiting line', async () => {
    overridePdfPoolForTests({ workerFile: misbehaving, queue: 2 });
    const outcomes = await Promise.all(Array.from({ length: 5 }, (_, index) => pdfTextInPool(bytesOf(`doc ${index}`), limits)));
    expect(outcomes.map((outcome) => (outcome.ok ? 'read' : outcome.reason))).toEqual(['read', 'read', 'read', 'busy', 'busy']);
  });
});
