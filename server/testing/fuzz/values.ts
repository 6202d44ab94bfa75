/**
 * Values of fuzz cases before they are sent:
 *
 * - `WorldRef`: a placeholder for a fixture's value (a table id, a column key, an invitation token),
 *   resolved at send time, because fixtures are rebuilt when a request destroys them.
 * - `RawJson`: JSON text spliced into a body as is (nesting deeper than JSON.stringify can recurse,
 *   numbers JSON cannot write such as 1e400, duplicate keys).
 *
 * Object keys are always own properties (`__proto__` included), set with defineProperty, so a key
 * named `__proto__` is sent as a key and never changes a prototype on our side.
 */

export class WorldRef {
  constructor(
    readonly name: string,
    readonly transform?: (value: unknown) => unknown,
  ) {}
}

export class RawJson {
  constructor(readonly text: string) {}
}

/** A value sent as its JSON text inside a string (a query parameter such as `filter`). */
export class JsonString {
  constructor(readonly value: unknown) {}
}

export type Pointer = readonly (string | number)[];

export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export function objectOf(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of entries) setOwn(result, key, value);
  return result;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof WorldRef) &&
    !(value instanceof RawJson) &&
    !(value instanceof JsonString)
  );
}

/** A copy of `root` with the value at `pointer` replaced (or removed when `remove`). */
export function withValueAt(root: unknown, pointer: Pointer, value: unknown, remove = false): unknown {
  if (pointer.length === 0) return value;
  const [head, ...rest] = pointer;
  if (Array.isArray(root)) {
    const copy = [...root];
    if (remove && rest.length === 0) copy.splice(Number(head), 1);
    else copy[Number(head)] = withValueAt(copy[Number(head)], rest, value, remove);
    return copy;
  }
  const source = isPlainObject(root) ? root : {};
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    if (remove && rest.length === 0 && key === String(head)) continue;
    setOwn(copy, key, key === String(head) ? withValueAt(source[key], rest, value, remove) : source[key]);
  }
  if (!Object.hasOwn(copy, String(head)) && !remove) setOwn(copy, String(head), withValueAt(undefined, rest, value, remove));
  return copy;
}

export function valueAt(root: unknown, pointer: Pointer): unknown {
  let current = root;
  for (const step of pointer) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, step)) return undefined;
    current = (current as Record<string, unknown>)[step as string];
  }
  return current;
}

/** Replaces every WorldRef by its value (reporting which fixtures were used); keeps own keys own. */
export async function materialize(value: unknown, resolve: (name: string) => Promise<unknown>, used: Set<string>): Promise<unknown> {
  if (value instanceof WorldRef) {
    used.add(value.name.slice(0, value.name.lastIndexOf('.')));
    const resolved = await resolve(value.name);
    return value.transform ? value.transform(resolved) : resolved;
  }
  if (value instanceof JsonString) return toJsonText(await materialize(value.value, resolve, used));
  if (Array.isArray(value)) {
    const out = [];
    for (const item of value) out.push(await materialize(item, resolve, used));
    return out;
  }
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) setOwn(out, key, await materialize(value[key], resolve, used));
    return out;
  }
  return value;
}

/** JSON text of a materialized value, with RawJson pieces spliced in. */
export function toJsonText(value: unknown): string {
  const raws: string[] = [];
  const marker = `\u0001raw${Math.random().toString(36).slice(2)}\u0001`;
  const text = JSON.stringify(value, (_key, item) => {
    if (item instanceof RawJson) {
      raws.push(item.text);
      return `${marker}${raws.length - 1}`;
    }
    return item;
  });
  if (text === undefined) return '';
  if (raws.length === 0) return text;
  const escapedMarker = JSON.stringify(marker).slice(1, -1);
  return text.replace(new RegExp(`"${escapedMarker.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}(\\d+)"`, 'g'), (_match, index) => raws[Number(index)]);
}

/** A short, flat (not sliced from a large string) description of a value, for reports. */
export function preview(value: unknown, limit = 160): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (value instanceof Uint8Array) text = `<${value.byteLength} bytes>`;
  else {
    try {
      text = toJsonText(value);
    } catch {
      text = String(value);
    }
  }
  const short = text.length > limit ? `${text.slice(0, limit)}…(${text.length} chars)` : text;
  // A copy, not a slice: a slice of a 6 MB string would keep the whole string alive.
  return Buffer.from(short, 'utf8').toString('utf8');
}
