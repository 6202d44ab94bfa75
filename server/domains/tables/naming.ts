/**
 * Names derived from human text: table slugs from names, column keys from labels. Pure.
 */

const slugPattern = /^[a-z][a-z0-9_-]*$/;
const keyPattern = /^[a-z][a-z0-9_]*$/;

function ascii(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

function derive(text: string, separator: '-' | '_', fallback: string, maxLength: number): string {
  const pattern = separator === '-' ? /[^a-z0-9_-]+/g : /[^a-z0-9_]+/g;
  let base = ascii(text).replace(pattern, separator).replace(new RegExp(`\\${separator}+`, 'g'), separator);
  base = base.replace(new RegExp(`^[^a-z]+|\\${separator}+$`, 'g'), '');
  if (!base) base = fallback;
  return base.slice(0, maxLength).replace(new RegExp(`\\${separator}+$`), '');
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
  return slugPattern.test(value) && value.length <= 60;
}

export function isColumnKey(value: string): boolean {
  return keyPattern.test(value) && value.length <= 60;
}
