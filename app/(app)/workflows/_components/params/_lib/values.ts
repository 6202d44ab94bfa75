/**
 * Immutable reads and writes of parameter values by path. Keys are own data properties only (a
 * `__proto__` or `constructor` key typed by a member stays plain data, never reaches a prototype).
 */
import type { Segment } from './paths';

export function ownValue(container: unknown, key: Segment): unknown {
  if (container === null || typeof container !== 'object') return undefined;
  if (Array.isArray(container)) return typeof key === 'number' ? container[key] : undefined;
  const name = String(key);
  return Object.hasOwn(container, name) ? (container as Record<string, unknown>)[name] : undefined;
}

export function getAt(root: unknown, segments: readonly Segment[]): unknown {
  let current = root;
  for (const segment of segments) current = ownValue(current, segment);
  return current;
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A copy of an object with `key` set (kept in place when it exists) or removed (`value` undefined). */
export function withKey(object: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let seen = false;
  for (const name of Object.keys(object)) {
    if (name === key) {
      seen = true;
      if (value !== undefined) setOwn(out, name, value);
    } else {
      setOwn(out, name, object[name]);
    }
  }
  if (!seen && value !== undefined) setOwn(out, key, value);
  return out;
}

/**
 * `root` with the value at `segments` replaced; `undefined` removes an object key. Missing
 * containers on the way are created (an object, or an array for a numeric segment).
 */
export function setAt(root: unknown, segments: readonly Segment[], value: unknown): unknown {
  if (segments.length === 0) return value;
  const [head, ...rest] = segments;
  const current = ownValue(root, head);
  const next = rest.length === 0 ? value : setAt(current ?? (typeof rest[0] === 'number' ? [] : {}), rest, value);
  if (Array.isArray(root) && typeof head === 'number') {
    const copy = [...root];
    copy[head] = next;
    return copy;
  }
  const object = root !== null && typeof root === 'object' && !Array.isArray(root) ? (root as Record<string, unknown>) : {};
  return withKey(object, String(head), next);
}

/** Renames a record key in place (the order of keys is kept). */
export function renameKey(object: Record<string, unknown>, from: string, to: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(object)) setOwn(out, name === from ? to : name, object[name]);
  return out;
}

export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const copy = [...items];
  if (to < 0 || to >= copy.length) return copy;
  const [item] = copy.splice(from, 1);
  copy.splice(to, 0, item);
  return copy;
}
