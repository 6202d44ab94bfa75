/**
 * Text as PostgreSQL can store it, cut to a bound: NUL removed (refused by `text` and JSONB), unpaired
 * UTF-16 surrogates replaced (refused by JSONB), and never cut in the middle of a surrogate pair.
 */

/** Storable text of at most `max` UTF-16 units; `cut` tells whether anything was dropped. */
export function storableText(value: string, max: number): { text: string; cut: boolean } {
  let text = value;
  let cut = false;
  if (text.length > max) {
    let end = max;
    // Do not leave the high half of a pair at the end.
    const last = text.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff) end -= 1;
    text = text.slice(0, end);
    cut = true;
  }
  if (text.includes('\u0000')) text = text.replaceAll('\u0000', '');
  if (!text.isWellFormed()) text = text.toWellFormed();
  return { text, cut };
}

/** `storableText` without the flag; null for empty or absent values. */
export function storable(value: string | null | undefined, max: number): string | null {
  if (value === null || value === undefined) return null;
  const { text } = storableText(value, max);
  return text === '' ? null : text;
}

const whitespace = /\s+/g;

/**
 * The preview of a body: the first `max` characters with runs of whitespace collapsed. Only a bounded
 * head of the text is looked at (a few times `max`, stretched while it is mostly whitespace).
 */
export function snippetOf(text: string | null | undefined, max: number): string | null {
  if (!text) return null;
  let window = max * 4;
  let collapsed = '';
  // A body that opens with a long run of blank lines still gets a preview; bounded by 64 windows.
  for (let round = 0; round < 64; round += 1) {
    collapsed = text.slice(0, window).replace(whitespace, ' ').trim();
    if (collapsed.length >= max || window >= text.length) break;
    window *= 2;
  }
  return storable(collapsed, max);
}
