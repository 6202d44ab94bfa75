/**
 * Plain objects indexed by a string someone chose (a column key, a CSV header): reads see only the
 * object's own properties, never Object.prototype's (`constructor`, `toString`…), and writes define
 * an own property even for `__proto__`, which plain assignment would turn into a prototype change.
 */

/** `record[key]` when `record` has that own property, else undefined. */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** `record[key] = value` as an own, enumerable data property, whatever the key. */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
}
