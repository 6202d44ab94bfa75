/**
 * The anonymised error summary of an incident and an `execution.failed` notification (≤ 200 chars):
 * what failed and why, without the personal data an error message may carry (addresses, tokens,
 * query strings, long numbers).
 */
const emailPattern = /[^\s@<>()"',;]{1,64}@[^\s@<>()"',;]{1,255}/g;
const queryPattern = /(https?:\/\/[^\s?#]{1,2000})[?#][^\s]*/g;
const longNumberPattern = /\d{6,}/g;
const tokenPattern = /\b[A-Za-z0-9_-]{32,}\b/g;

export function anonymisedSummary(input: { code: string; message: string; nodeName?: string | null }): string {
  const message = input.message
    .slice(0, 2_000)
    .replace(queryPattern, '$1')
    .replace(emailPattern, '<address>')
    .replace(tokenPattern, '<token>')
    .replace(longNumberPattern, '<number>')
    .replace(/\s+/g, ' ')
    .trim();
  const prefix = input.nodeName ? `${input.nodeName}: ` : '';
  const text = `${prefix}${input.code}: ${message}`;
  return text.length <= 200 ? text : `${text.slice(0, 199)}…`;
}
