/** Own enumerable keys of a record (never inherited ones). */
export function ownKeys(record: Record<string, unknown>): string[] {
  return Object.keys(record).filter((key) => Object.hasOwn(record, key));
}
