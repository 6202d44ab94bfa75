/**
 * The parameters a node starts with when dropped from the palette: the defaults its type's JSON
 * Schema declares for top-level fields. Anything required without a default is left for the member
 * (the server then names it at its path).
 */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function defaultParamsOf(schema: unknown): Record<string, unknown> {
  if (!isRecord(schema) || !isRecord(schema.properties)) return {};
  const params: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    if (isRecord(property) && Object.hasOwn(property, 'default') && property.default !== undefined) {
      Object.defineProperty(params, name, { value: structuredClone(property.default), enumerable: true, writable: true, configurable: true });
    }
  }
  return params;
}
