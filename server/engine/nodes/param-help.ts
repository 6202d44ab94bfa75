/**
 * A node type's parameter JSON Schema in the reader's language: the help texts (`description`) the
 * editor shows under each field, in French when asked (param-help-fr.ts). Values a schema carries
 * (`default`, `const`, `enum`, `examples`) are data, never help: they are left as they are.
 */
import { paramHelpFr } from './param-help-fr';

const dataKeywords = new Set(['default', 'const', 'enum', 'examples']);

function localized(node: unknown, help: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(node)) return node.map((entry) => localized(entry, help));
  if (!node || typeof node !== 'object') return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'description' && typeof value === 'string') copy[key] = help.get(value) ?? value;
    else copy[key] = dataKeywords.has(key) ? value : localized(value, help);
  }
  return copy;
}

export function localizeParamsSchema(schema: Record<string, unknown>, lang: 'en' | 'fr'): Record<string, unknown> {
  return lang === 'fr' ? (localized(schema, paramHelpFr) as Record<string, unknown>) : schema;
}

/** Every help text of a parameter schema, for the test that each has its French. */
export function paramHelpTexts(schema: unknown): string[] {
  if (Array.isArray(schema)) return schema.flatMap(paramHelpTexts);
  if (!schema || typeof schema !== 'object') return [];
  return Object.entries(schema).flatMap(([key, value]) =>
    key === 'description' && typeof value === 'string' ? [value] : dataKeywords.has(key) ? [] : paramHelpTexts(value),
  );
}
