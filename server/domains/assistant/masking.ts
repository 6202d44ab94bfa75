/**
 * What the assistant's model may see of a member's workflow (issue 18, item 6): the graph with every
 * secret-looking value masked before it leaves for the AI vendor, and a proposal's masked values put
 * back from the draft the model read, so accepting it never writes the mask over a real secret.
 *
 * Masked: what a step's stored input masks (keys such as `password`, `token`, `apiKey`, and `{name,
 * value}` pairs whose name is one of them: inline headers and query parameters; engine/expressions
 * `maskSecrets`), plus secret-looking parameters and passwords inside URLs (`?api_key=…`,
 * `//user:pass@`). The values masked are also replaced wherever else they appear in a tool's answer
 * (an error message quoting one), when at least 4 characters long (a shorter one would mangle text).
 */
import { maskSecrets, maskText } from '../../engine';

const urlParamPattern = /([?&](?:[^=&#\s"']*(?:password|secret|token|auth|api[-_]?key|access[-_]?key)[^=&#\s"']*|key|sig|signature)=)([^&#\s"']+)/gi;
const urlPasswordPattern = /(\/\/[^/:@\s"']+:)([^@/\s"']+)(@)/g;
const minByValueLength = 4;

type Json = unknown;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `text` with secret-looking URL parts masked; the values masked are added to `found`. */
function maskUrlParts(text: string, found: Set<string>): string {
  return text
    .replace(urlParamPattern, (_match, head: string, value: string) => {
      found.add(value);
      return `${head}${maskText}`;
    })
    .replace(urlPasswordPattern, (_match, head: string, value: string, tail: string) => {
      found.add(value);
      return `${head}${maskText}${tail}`;
    });
}

/** Walks the value and its `maskSecrets` copy together: URL parts masked, whole values masked collected. */
function maskWalk(original: Json, masked: Json, found: Set<string>, depth: number): Json {
  if (depth > 64) return masked;
  if (typeof masked === 'string') {
    if (masked === maskText && (typeof original === 'string' || typeof original === 'number' || typeof original === 'boolean') && original !== maskText) found.add(String(original));
    return masked === maskText ? masked : maskUrlParts(masked, found);
  }
  if (Array.isArray(masked)) return masked.map((item, index) => maskWalk(Array.isArray(original) ? original[index] : undefined, item, found, depth + 1));
  if (isRecord(masked)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(masked)) setOwn(out, key, maskWalk(isRecord(original) && Object.hasOwn(original, key) ? original[key] : undefined, masked[key], found, depth + 1));
    return out;
  }
  return masked;
}

export interface MaskedForModel<T> {
  value: T;
  /** The secret values masked (for masking them by value elsewhere). */
  secrets: string[];
}

/** A copy of `value` with every secret-looking value masked, and the values masked. */
export function maskForModel<T>(value: T): MaskedForModel<T> {
  const found = new Set<string>();
  const masked = maskWalk(value, maskSecrets(value), found, 0) as T;
  return { value: masked, secrets: [...found].filter((secret) => secret.length >= minByValueLength) };
}

/** A copy of `value` with every occurrence of the secrets (in any string, keys included) replaced by the mask. */
export function maskValues<T>(value: T, secrets: readonly string[]): T {
  const forms = [...new Set(secrets.filter((secret) => secret.length >= minByValueLength))].sort((a, b) => b.length - a.length);
  if (forms.length === 0) return value;
  const scrub = (text: string) => forms.reduce((result, form) => (result.includes(form) ? result.split(form).join(maskText) : result), text);
  const walk = (item: unknown, depth: number): unknown => {
    if (typeof item === 'string') return scrub(item);
    if (depth > 64 || item === null || typeof item !== 'object') return item;
    if (Array.isArray(item)) return item.map((entry) => walk(entry, depth + 1));
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(item)) setOwn(out, scrub(key), walk((item as Record<string, unknown>)[key], depth + 1));
    return out;
  };
  return walk(value, 0) as T;
}

/**
 * The item of `list` that `item` stands for: the one with the same `id` (nodes), else the same `name`
 * in any case (header and query pairs), else, for items with neither, the same position. A named item
 * with no namesake has none: a masked value never moves to another header or parameter.
 */
function counterpartIndex(item: unknown, list: unknown[], index: number): number {
  if (isRecord(item)) {
    for (const key of ['id', 'name']) {
      const wanted = item[key];
      if (typeof wanted !== 'string') continue;
      return list.findIndex((candidate) => isRecord(candidate) && typeof candidate[key] === 'string' && (candidate[key] as string).toLowerCase() === wanted.toLowerCase());
    }
  }
  return index;
}

function restoreWalk(proposed: Json, original: Json, maskedOriginal: Json, path: string, unresolved: string[], depth: number): Json {
  if (depth > 64) return proposed;
  if (typeof proposed === 'string') {
    if (!proposed.includes(maskText)) return proposed;
    // The model kept a value it saw masked: the real one is the draft's at the same place.
    if (maskedOriginal === proposed && original !== undefined) return original;
    unresolved.push(path);
    return proposed;
  }
  if (Array.isArray(proposed)) {
    const originals = Array.isArray(original) ? original : [];
    const maskedOriginals = Array.isArray(maskedOriginal) ? maskedOriginal : [];
    return proposed.map((item, index) => {
      const at = counterpartIndex(item, originals, index);
      return restoreWalk(item, originals[at], maskedOriginals[at], `${path}.${index}`, unresolved, depth + 1);
    });
  }
  if (isRecord(proposed)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(proposed)) {
      const own = (value: Json) => (isRecord(value) && Object.hasOwn(value, key) ? value[key] : undefined);
      setOwn(out, key, restoreWalk(proposed[key], own(original), own(maskedOriginal), path ? `${path}.${key}` : key, unresolved, depth + 1));
    }
    return out;
  }
  return proposed;
}

/**
 * A graph proposed by the model with the masked values it kept put back from `draft` (the graph it
 * read): matched by node id, pair name or position. `unresolved` lists the paths still holding the mask
 * (a masked value moved somewhere the draft has none): the proposal is refused with them.
 */
export function restoreMaskedValues(proposed: unknown, draft: unknown): { graph: unknown; unresolved: string[] } {
  const unresolved: string[] = [];
  const graph = restoreWalk(proposed, draft, maskForModel(draft).value, '', unresolved, 0);
  return { graph, unresolved };
}
