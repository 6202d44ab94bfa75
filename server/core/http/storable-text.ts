/**
 * Text PostgreSQL cannot store: the NUL character (refused in `text` and in JSONB strings) and
 * unpaired UTF-16 surrogates (JSON can carry `"\ud800"`, JSONB refuses it, and `text` would silently
 * get a replacement character). Any such string in a request's input, as a value or as a key, is
 * refused up front with 400 `request.bad_request` naming where it is, instead of reaching a query
 * and failing there as a 500. Checked once per request, in the procedure pipeline and the plain-route
 * pipeline, before schema validation.
 */
import { appError } from '../errors/app-error';

function isUnstorable(text: string): boolean {
  return text.includes('\u0000') || !text.isWellFormed();
}

interface Visit {
  value: unknown;
  key: string | null;
  parent: Visit | null;
}

/** The keys from the root down to `visit`, rebuilt only once a bad string is found. */
function pathOf(visit: Visit): string[] {
  const path: string[] = [];
  // Only the root has no parent (and no key).
  for (let at = visit; at.parent !== null; at = at.parent) path.push(at.key!);
  return path.reverse();
}

const asShown = (key: string) => key.toWellFormed().replaceAll('\u0000', '\ufffd');

/**
 * The path to the first unstorable string in `value` (`["cells", "name"]`; a bad key is named by
 * itself, with the bad characters shown as U+FFFD), or null. Iterative with parent links, so a deeply
 * nested body can neither overflow the stack nor cost more than one visit per node: linear in the
 * input (itself bounded by the body limit).
 */
export function findUnstorableText(value: unknown): string[] | null {
  const pending: Visit[] = [{ value, key: null, parent: null }];
  while (pending.length > 0) {
    const visit = pending.pop()!;
    const current = visit.value;
    if (typeof current === 'string') {
      if (isUnstorable(current)) return pathOf(visit);
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => pending.push({ value: item, key: String(index), parent: visit }));
    } else if (current !== null && typeof current === 'object' && !(current instanceof Uint8Array)) {
      for (const [key, item] of Object.entries(current)) {
        if (isUnstorable(key)) return [...pathOf(visit), asShown(key)];
        pending.push({ value: item, key, parent: visit });
      }
    }
  }
  return null;
}

/** Throws 400 `request.bad_request` when the input holds a string PostgreSQL cannot store. */
export function assertStorableText(value: unknown, where?: 'path' | 'query' | 'body'): void {
  const path = findUnstorableText(value);
  if (path === null) return;
  const message = 'Text must not contain NUL characters or unpaired UTF-16 surrogates.';
  throw appError('request.bad_request', {
    message,
    details: { ...(where ? { in: where } : {}), issues: [{ path: path.join('.'), code: 'unstorable_text', message }] },
  });
}
