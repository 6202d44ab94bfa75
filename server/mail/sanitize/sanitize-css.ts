/**
 * CSS of a mail body (`<style>` elements and `style` attributes) reduced to what only styles.
 *
 * The output is rebuilt from pieces that were each checked whole, never patched in place:
 *
 *   - at-rules: `@media` and `@supports` keep their (checked) rules; every other one goes (`@import`,
 *     `@font-face` loads fonts, `@namespace`, `@charset`, `@keyframes`, `@-moz-document`, …);
 *   - declarations: the property is a plain name (no escapes) and not a binding (`behavior`,
 *     `-moz-binding`); every function in the value is on an allowlist of functions that compute
 *     colours, lengths, gradients and transforms (so no `expression()`, `image-set()`,
 *     `cross-fade()`, `element()`, `paint()`, `src()`, IE `progid:` filters); a value with CSS escapes
 *     is kept only when, decoded, it holds no function, brace, semicolon or angle bracket;
 *   - `url()`: a remote URL is reported; it is kept only with `allowRemoteImages` in a background
 *     property, written back as `url("<serialised URL>")`; any other url() becomes `none`.
 *
 * A comment is removed before a value is checked (`expr/**\/ession(`), and `<` never reaches the
 * output (a `</style>` inside a stylesheet would end the element in the serialised HTML).
 * Anything that does not parse as expected is dropped: a lost declaration only costs styling.
 */
import { classifyUrl } from './url-policy';

export interface CssPolicy {
  /** Keep remote background images (`background`, `background-image`). Default false. */
  allowRemoteImages: boolean;
  /** Called once for each remote URL met, kept or not. */
  onRemote: () => void;
}

const maxValueChars = 4_096;
const maxSelectorChars = 2_048;
/** Nesting of `@media`/`@supports` blocks kept; deeper ones are dropped. */
const maxBlockDepth = 4;

const propertyPattern = /^(?:-?[a-zA-Z_][a-zA-Z0-9_-]*|--[a-zA-Z0-9_-]+)$/;
const forbiddenProperties = new Set(['behavior', '-ms-behavior', '-moz-binding', 'binding']);
const backgroundProperties = new Set(['background', 'background-image']);

/** Functions a value may call (vendor prefixes removed first); `url` is handled on its own. */
const allowedFunctions = new Set([
  ...['rgb', 'rgba', 'hsl', 'hsla', 'hwb', 'lab', 'lch', 'oklab', 'oklch', 'color', 'color-mix', 'light-dark'],
  ...['calc', 'min', 'max', 'clamp', 'var', 'env', 'minmax', 'repeat', 'fit-content'],
  ...['linear-gradient', 'radial-gradient', 'conic-gradient', 'repeating-linear-gradient', 'repeating-radial-gradient', 'repeating-conic-gradient', 'gradient'],
  ...['translate', 'translatex', 'translatey', 'translatez', 'translate3d', 'rotate', 'rotatex', 'rotatey', 'rotatez', 'rotate3d'],
  ...['scale', 'scalex', 'scaley', 'scalez', 'scale3d', 'skew', 'skewx', 'skewy', 'matrix', 'matrix3d', 'perspective'],
  ...['cubic-bezier', 'steps', 'rect', 'inset', 'circle', 'ellipse', 'polygon', 'counter', 'counters', 'format', 'local'],
  ...['blur', 'brightness', 'contrast', 'drop-shadow', 'grayscale', 'hue-rotate', 'invert', 'opacity', 'saturate', 'sepia'],
]);

// ---------------------------------------------------------------------------------------------
// Scanning: positions of top-level separators, skipping strings, comments, escapes and brackets.

/** The index after the string that starts at `start` (a quote): its closing quote, or the line end. */
function skipString(text: string, start: number): number {
  const quote = text[start];
  let at = start + 1;
  while (at < text.length) {
    const char = text[at];
    if (char === '\\') at += 2;
    else if (char === quote) return at + 1;
    else if (char === '\n' || char === '\r' || char === '\f') return at;
    else at += 1;
  }
  return text.length;
}

function skipComment(text: string, start: number): number {
  const end = text.indexOf('*/', start + 2);
  return end === -1 ? text.length : end + 2;
}

/**
 * Splits `text` at `separator` where it stands outside strings, comments, parentheses and braces.
 * Linear: every character is visited once.
 */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  let at = 0;
  while (at < text.length) {
    const char = text[at];
    if (char === '\\') at += 2;
    else if (char === '"' || char === "'") at = skipString(text, at);
    else if (char === '/' && text[at + 1] === '*') at = skipComment(text, at);
    else {
      if (char === '(' || char === '{' || char === '[') depth += 1;
      else if ((char === ')' || char === '}' || char === ']') && depth > 0) depth -= 1;
      else if (char === separator && depth === 0) {
        parts.push(text.slice(from, at));
        from = at + 1;
      }
      at += 1;
    }
  }
  parts.push(text.slice(from));
  return parts;
}

/** From `start`, the index of the first top-level `{` or `;` (or the end), skipping strings and comments. */
function findPreludeEnd(text: string, start: number): number {
  let depth = 0;
  let at = start;
  while (at < text.length) {
    const char = text[at];
    if (char === '\\') at += 2;
    else if (char === '"' || char === "'") at = skipString(text, at);
    else if (char === '/' && text[at + 1] === '*') at = skipComment(text, at);
    else {
      if (char === '(' || char === '[') depth += 1;
      else if ((char === ')' || char === ']') && depth > 0) depth -= 1;
      else if ((char === '{' || char === ';') && depth === 0) return at;
      at += 1;
    }
  }
  return text.length;
}

/** `open` is the index of a `{`: the index of its matching `}` (or the end of the text). */
function findBlockEnd(text: string, open: number): number {
  let depth = 0;
  let at = open;
  while (at < text.length) {
    const char = text[at];
    if (char === '\\') at += 2;
    else if (char === '"' || char === "'") at = skipString(text, at);
    else if (char === '/' && text[at + 1] === '*') at = skipComment(text, at);
    else {
      if (char === '{') depth += 1;
      else if (char === '}') {
        depth -= 1;
        if (depth === 0) return at;
      }
      at += 1;
    }
  }
  return text.length;
}

// ---------------------------------------------------------------------------------------------
// Values.

const removeComments = (text: string) => (text.includes('/*') ? text.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, '') : text);

/** CSS escapes decoded (`\75 rl` is `url`, `\3b` is `;`), as a browser's tokenizer reads them. */
export function decodeCssEscapes(text: string): string {
  return text.replace(/\\(?:([0-9a-fA-F]{1,6})[ \t\n\r\f]?|(\r\n|[\n\r\f])|([\s\S]))/g, (_match, hex: string | undefined, _newline, other: string | undefined) => {
    if (hex !== undefined) {
      const code = parseInt(hex, 16);
      return code === 0 || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff ? '\ufffd' : String.fromCodePoint(code);
    }
    return other ?? '';
  });
}

const functionPattern = /([a-zA-Z_-][a-zA-Z0-9_-]*)\s*\(/g;
const urlPattern = /\burl\(\s*(?:"([^"\\\n\r\f]*)"|'([^'\\\n\r\f]*)'|([^"'()\\\s]*))\s*\)/gi;

const withoutVendorPrefix = (name: string) => name.toLowerCase().replace(/^-(?:webkit|moz|ms|o)-/, '');

/** `url("…")` for a serialised URL, with the characters CSS could misread percent-encoded. */
const cssUrl = (href: string) => `url("${href.replace(/['()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}")`;

/** The value as kept, or null to drop the declaration. */
function sanitizeValue(property: string, rawValue: string, policy: CssPolicy): string | null {
  let value = removeComments(rawValue).trim();
  if (value === '' || value.length > maxValueChars || /[{}<>;]/.test(value)) return null;
  if (value.includes('\\')) {
    // Escapes are common in font names (`\5FAE\8F6F\96C5\9ED1`) and `content` strings; they must not
    // hide a function or end the declaration.
    if (value.endsWith('\\')) return null;
    if (/[(){}<>;\\]/.test(decodeCssEscapes(value))) return null;
    return value;
  }
  value = value.replace(urlPattern, (_match, double: string | undefined, single: string | undefined, bare: string | undefined) => {
    const target = classifyUrl(double ?? single ?? bare ?? '');
    if (target.kind !== 'remote') return 'none';
    policy.onRemote();
    return policy.allowRemoteImages && backgroundProperties.has(property) ? cssUrl(target.url) : 'none';
  });
  for (const match of value.matchAll(functionPattern)) {
    const name = withoutVendorPrefix(match[1]);
    // A url() left here did not match the strict form above (unclosed, odd characters).
    if (name === 'url' && !/^url\("[^"]*"\)/i.test(value.slice(match.index))) return null;
    if (name !== 'url' && !allowedFunctions.has(name)) return null;
  }
  // IE filters (`progid:DXImageTransform.Microsoft.AlphaImageLoader(src=…)`) call through a dotted name.
  if (/progid\s*:/i.test(value)) return null;
  return value;
}

/** One declaration as kept (`same`: exactly as written), or null to drop it. */
function checkDeclaration(declaration: string, policy: CssPolicy): { text: string; same: boolean } | null {
  const colon = declaration.indexOf(':');
  if (colon === -1) return null;
  const rawProperty = declaration.slice(0, colon);
  const property = removeComments(rawProperty).trim();
  if (!propertyPattern.test(property) || property.length > 100) return null;
  const lowered = property.toLowerCase();
  if (forbiddenProperties.has(lowered)) return null;
  const rawValue = declaration.slice(colon + 1);
  const value = sanitizeValue(lowered, rawValue, policy);
  if (value === null) return null;
  return { text: `${property}: ${value}`, same: property === rawProperty.trim() && value === rawValue.trim() };
}

/**
 * The declarations of a `style` attribute or a rule's block, as kept (`a: b; c: d`), or ''. When
 * every declaration is kept exactly as written, the text itself comes back (trimmed): the same
 * tokens, and for a `style` attribute no second parse of it by jsdom.
 */
export function sanitizeDeclarations(text: string, policy: CssPolicy): string {
  const kept: string[] = [];
  let unchanged = true;
  for (const declaration of splitTopLevel(text, ';')) {
    if (declaration.trim() === '') continue;
    const checked = checkDeclaration(declaration, policy);
    if (checked === null) unchanged = false;
    else {
      kept.push(checked.text);
      if (!checked.same) unchanged = false;
    }
  }
  if (kept.length === 0) return '';
  return unchanged ? text.trim() : kept.join('; ');
}

// ---------------------------------------------------------------------------------------------
// Stylesheets.

/** A selector or an at-rule prelude that is safe to write back as it is. */
function cleanPrelude(text: string, maxChars: number): string | null {
  const prelude = removeComments(text).trim();
  if (prelude === '' || prelude.length > maxChars || /[<{};@]/.test(prelude) || prelude.endsWith('\\')) return null;
  if (/url\s*\(|expression\s*\(/i.test(prelude)) return null;
  return prelude;
}

function sanitizeRules(text: string, policy: CssPolicy, depth: number): string[] {
  const out: string[] = [];
  let at = 0;
  while (at < text.length) {
    const end = findPreludeEnd(text, at);
    const prelude = text.slice(at, end);
    if (end >= text.length) break; // a prelude without a block: nothing to keep
    if (text[end] === ';') {
      at = end + 1; // a statement at-rule (@import, @charset, @namespace) or junk
      continue;
    }
    const close = findBlockEnd(text, end);
    const body = text.slice(end + 1, close);
    at = close + 1;
    const trimmed = removeComments(prelude).trim();
    if (trimmed.startsWith('@')) {
      const name = /^@([a-zA-Z-]+)/.exec(trimmed)?.[1]?.toLowerCase();
      if ((name !== 'media' && name !== 'supports') || depth >= maxBlockDepth) continue;
      const condition = cleanPrelude(trimmed.slice(name.length + 1), maxSelectorChars);
      const inner = condition === null ? [] : sanitizeRules(body, policy, depth + 1);
      if (inner.length > 0) out.push(`@${name} ${condition}{\n${inner.join('\n')}\n}`);
      continue;
    }
    const selector = cleanPrelude(trimmed, maxSelectorChars);
    if (selector === null) continue;
    const declarations = sanitizeDeclarations(body, policy);
    if (declarations !== '') out.push(`${selector}{${declarations}}`);
  }
  return out;
}

/** The text of a `<style>` element, as kept. HTML comment markers around it (`<!-- … -->`) are dropped. */
export function sanitizeStylesheet(text: string, policy: CssPolicy): string {
  return sanitizeRules(text.replace(/<!--|-->/g, ' '), policy, 0).join('\n');
}
