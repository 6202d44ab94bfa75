/**
 * A value as an error message quotes it (a cell refused, a folder a mailbox lacks, an address that is
 * not one): one line, at most `maxQuotedValue` characters, so a message names what it refused
 * without carrying a whole text into step errors, incidents or notifications.
 */

/** Enough to recognise a value, never a whole text. */
export const maxQuotedValue = 40;

export function quotedValue(value: unknown): string {
  const whole = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  // Cut by code points, never inside a surrogate pair (a lone surrogate is refused by PostgreSQL's jsonb).
  const points = Array.from(whole.slice(0, 2 * maxQuotedValue + 2).replace(/\p{Cc}+/gu, ' '));
  return points.length <= maxQuotedValue ? points.join('') : `${points.slice(0, maxQuotedValue - 1).join('')}…`;
}
