/**
 * The query string as an object of the caller's keys, safe to index and to spread.
 *
 * Keys are whatever the client wrote, so they are collected in a Map and turned into an object with
 * own properties only (`Object.fromEntries` defines them; it never assigns through the prototype).
 * `__proto__` is dropped: no route takes it, and any later plain assignment of it (a library copying
 * the object key by key) would replace the copy's prototype instead of setting a value. Every other
 * name that lives on `Object.prototype` (`constructor`, `toString`, ...) is an ordinary key here, left
 * to the route's schema: ignored by a lenient one, 400 from a strict one.
 */
const droppedQueryKeys: ReadonlySet<string> = new Set(['__proto__']);

/** Each key with all its values, in order (`?a=1&a=2` → `{a: ['1', '2']}`). */
export function queryValuesOf(url: URL): Record<string, string[]> {
  // Most requests have no query: `searchParams` would build a URLSearchParams for nothing.
  if (url.search === '') return {};
  const values = new Map<string, string[]>();
  for (const [key, value] of url.searchParams) {
    if (droppedQueryKeys.has(key)) continue;
    const list = values.get(key);
    if (list) list.push(value);
    else values.set(key, [value]);
  }
  return Object.fromEntries(values);
}

/** A key given once as a string, a repeated key as an array (as trpc-to-openapi reads the query). */
export function queryObjectOf(url: URL): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(queryValuesOf(url)).map(([key, list]) => [key, list.length === 1 ? list[0] : list]),
  );
}
