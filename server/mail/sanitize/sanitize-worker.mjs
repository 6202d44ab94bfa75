/**
 * Entry of a sanitiser pool thread (piscina). Plain JavaScript so a bare worker thread can load it
 * wherever the pool runs: under `tsx` (the web process, the runner, `npx tsx` scripts) and under
 * vitest, neither of which carries its TypeScript loader into worker threads reliably. It registers
 * tsx's loader for its own imports only (a namespace), then loads the TypeScript sanitiser.
 */
import { register } from 'tsx/esm/api';

const loader = register({ namespace: 'mailflow-sanitize-worker' });
const { sanitizeMailHtml } = await loader.import('./sanitize-html.ts', import.meta.url);

/** One task: `{ html, allowRemoteImages }` → `{ html, hasRemoteImages, truncated }`. */
export default function sanitize(task) {
  return sanitizeMailHtml(task.html, { allowRemoteImages: task.allowRemoteImages === true });
}
