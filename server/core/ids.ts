/**
 * Identifiers as the API receives them. Ids are PostgreSQL UUIDs; a path or body may carry anything, so
 * a lookup tests the shape first (a malformed id is "not found", never a database cast error) and reads
 * the id lower-cased.
 */

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` has the shape of a UUID (any case). */
export function isUuid(value: string): boolean {
  return uuidShape.test(value);
}
