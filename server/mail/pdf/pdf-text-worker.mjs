/**
 * Entry of a PDF text thread (piscina): the text of a PDF's first pages, read by PDF.js (Mozilla's
 * reader, in unpdf's serverless build: no canvas, no font loading, no `eval`). Plain JavaScript, like
 * the sanitiser's thread entry, so a bare worker thread loads it under tsx and vitest alike.
 *
 * Never throws for the document: a PDF that asks for a password, is not a PDF, or breaks the reader
 * answers `{ ok: false, reason, message }`. What a document could do to the thread (run too long,
 * exhaust the heap or allocate buffers without end) is bounded by the pool, which ends the thread.
 */
import { getDocumentProxy } from 'unpdf';

/** PDF.js settings for untrusted input: nothing evaluated, fetched or loaded beyond the bytes given. */
const readerOptions = {
  isEvalSupported: false,
  useSystemFonts: false,
  disableFontFace: true,
  useWorkerFetch: false,
  isOffscreenCanvasSupported: false,
  stopAtErrors: false,
  verbosity: 0,
};

function reasonOf(error) {
  const name = error && typeof error === 'object' ? error.name : '';
  if (name === 'PasswordException') return { reason: 'encrypted', message: 'it is protected by a password' };
  if (name === 'InvalidPDFException') return { reason: 'invalid', message: 'it is not a readable PDF' };
  return { reason: 'unreadable', message: 'the PDF reader could not read it' };
}

/** One task: `{ bytes, maxPages, maxChars }` → `{ ok, text, pagesRead, totalPages, truncated }` or `{ ok: false, reason, message }`. */
export default async function readPdfText(task) {
  let document = null;
  try {
    document = await getDocumentProxy(new Uint8Array(task.bytes), readerOptions);
    const totalPages = document.numPages;
    const pagesRead = Math.min(totalPages, task.maxPages);
    const pages = [];
    let chars = 0;
    let truncated = pagesRead < totalPages;
    for (let number = 1; number <= pagesRead; number += 1) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      const text = content.items.map((item) => (typeof item.str === 'string' ? item.str + (item.hasEOL ? '\n' : '') : '')).join('');
      page.cleanup();
      pages.push(text);
      chars += text.length;
      if (chars > task.maxChars) {
        truncated = true;
        break;
      }
    }
    const text = pages.join('\n\n').replace(/[^\S\n]+/g, ' ').replace(/ ?\n ?/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
    return { ok: true, text: text.slice(0, task.maxChars), pagesRead: pages.length, totalPages, truncated: truncated || text.length > task.maxChars };
  } catch (error) {
    return { ok: false, ...reasonOf(error) };
  } finally {
    if (document) await document.loadingTask.destroy().catch(() => {});
  }
}
