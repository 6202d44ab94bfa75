/**
 * A number or an amount of money as people write it, read into a JavaScript number for a number
 * column: "87.40", "87,40", "EUR 87.40", "87,40 €", "€87.40", "-1 234,56", "1,234.56", "1.234,56",
 * "1'234.50", "1e3". Pure, and linear in its input (bounded first, no backtracking pattern).
 *
 * The rule, also written in ARCHITECTURE.md (Shared tables) and the README (Tables):
 * - A currency (a symbol such as €, $, £, or an ISO 4217 code such as EUR, case-insensitive) may
 *   stand before or after the number, with or without a space, once. It is dropped: a number
 *   column stores the number, and says so (`currency` in the answer).
 * - Spaces (also the non-breaking ones French typography uses) and apostrophes group thousands.
 * - With both `.` and `,` the last one is the decimal separator, the other groups thousands.
 * - With one kind only, used more than once, it groups thousands ("1.234.567").
 * - A lone `.` or `,` is the decimal separator ("87,40", "1234.5", "0,125"), except when it could
 *   also group thousands: exactly three digits after it and one to three digits, not a lone 0,
 *   before it ("1,234", "12.500"). That is refused as ambiguous (the writer's locale decides, and
 *   we do not know it) rather than guessed, naming both readings: never silently wrong.
 * - Thousands groups have three digits ("12,34,567" is refused), and a text with a grouping
 *   character and no decimal part is still read: "1 234" → 1234.
 */

/** Longer texts are not numbers anyone wrote (a float8 prints in at most 24 characters). */
const maxNumberText = 64;

export type NumberText =
  | { ok: true; value: number; currency: string | null }
  | { ok: false; reason: 'not_a_number' }
  | { ok: false; reason: 'ambiguous_number'; readings: [number, number] };

const isoCurrencies: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));
/** Currencies written with letters around their symbol or as a short word, in common use. */
const letteredCurrencies: ReadonlySet<string> = new Set(['us$', 'ca$', 'au$', 'a$', 'c$', 'nz$', 'hk$', 's$', 'r$', 'mx$', 'kr', 'kč', 'zł', 'ft', 'fr', 'fr.', 'lei', 'chf', 'rs', 'rs.']);
const currencySymbol = /^\p{Sc}$/u;

/** Grouping characters: spaces (including no-break, narrow no-break and thin) and apostrophes. */
const groupingSpace = /[\s\u00a0\u202f\u2009']/;
const apostrophes = /[’]/g;

function currencyOf(token: string): string | null {
  if (token === '') return null;
  if (currencySymbol.test(token)) return token;
  const upper = token.toUpperCase();
  if (/^[A-Za-z]{3}$/.test(token) && isoCurrencies.has(upper)) return upper;
  if (letteredCurrencies.has(token.toLowerCase())) return token;
  return null;
}

/** Splits "EUR 87.40", "87,40 €", "€-87.40" into the currency (or null) and the rest. */
function splitCurrency(text: string): { currency: string | null; rest: string } | null {
  // The number part starts at its first digit (with a sign or a separator right before it) and ends at its last.
  const first = text.search(/[+\-\u2212]?[.,]?\d/);
  if (first < 0) return null;
  let last = text.length - 1;
  while (last >= 0 && !/\d/.test(text[last]!)) last -= 1;
  if (last < first) return null;
  const before = text.slice(0, first).trim();
  const after = text.slice(last + 1).trim();
  if (before !== '' && after !== '') return null;
  const token = before || after;
  const currency = currencyOf(token);
  if (token !== '' && currency === null) return null;
  return { currency, rest: text.slice(first, last + 1) };
}

const digitsOnly = /^\d+$/;
const exponentForm = /^\d+(\.\d+)?[eE][+-]?\d+$/;

/** "1.234.567" with `.` grouping: the digits, or null when the groups are not of three. */
function ungroup(text: string, separator: string): string | null {
  const groups = text.split(separator);
  const [head, ...tail] = groups;
  if (!head || head.length > 3 || !digitsOnly.test(head)) return null;
  return tail.every((group) => group.length === 3 && digitsOnly.test(group)) ? groups.join('') : null;
}

const groupingRun = /[\s\u00a0\u202f\u2009']+/g;

/** Splits at the only decimal separator allowed once spaces group the integer part ("1 234,56"). */
function readSpaceGrouped(body: string): { integer: string; fraction: string } | null {
  const marks = body.replace(/[^.,]/g, '');
  if (marks.length > 1) return null;
  const at = marks.length === 1 ? body.search(/[.,]/) : body.length;
  const integer = ungroup(body.slice(0, at).replace(groupingRun, ' ').trim(), ' ');
  return integer === null ? null : { integer, fraction: body.slice(at + 1) };
}

function readUnsigned(body: string): NumberText {
  const notANumber = { ok: false, reason: 'not_a_number' } as const;
  if (exponentForm.test(body)) return { ok: true, value: Number(body), currency: null };

  let integer: string;
  let fraction = '';
  const dots = body.split('.').length - 1;
  const commas = body.split(',').length - 1;
  if (groupingSpace.test(body)) {
    const read = readSpaceGrouped(body);
    if (!read) return notANumber;
    ({ integer, fraction } = read);
  } else if (dots > 0 && commas > 0) {
    // The last one is the decimal separator, and appears once; the other groups thousands.
    const decimal = body.lastIndexOf('.') > body.lastIndexOf(',') ? '.' : ',';
    if ((decimal === '.' ? dots : commas) !== 1) return notANumber;
    const at = body.lastIndexOf(decimal);
    const ungrouped = ungroup(body.slice(0, at), decimal === '.' ? ',' : '.');
    if (ungrouped === null) return notANumber;
    integer = ungrouped;
    fraction = body.slice(at + 1);
  } else if (dots + commas > 1) {
    const ungrouped = ungroup(body, dots > 0 ? '.' : ',');
    if (ungrouped === null) return notANumber;
    integer = ungrouped;
  } else if (dots + commas === 1) {
    const at = body.search(/[.,]/);
    integer = body.slice(0, at);
    fraction = body.slice(at + 1);
    const couldGroup = fraction.length === 3 && integer.length >= 1 && integer.length <= 3 && integer !== '0' && digitsOnly.test(integer + fraction);
    if (couldGroup) return { ok: false, reason: 'ambiguous_number', readings: [Number(`${integer}${fraction}`), Number(`${integer}.${fraction}`)] };
  } else {
    integer = body;
  }
  if ((integer === '' && fraction === '') || (integer !== '' && !digitsOnly.test(integer)) || (fraction !== '' && !digitsOnly.test(fraction))) return notANumber;
  const value = Number(`${integer || '0'}.${fraction || '0'}`);
  return Number.isFinite(value) ? { ok: true, value, currency: null } : notANumber;
}

const sign = /^[+\-\u2212]/;

/** Reads a number as people write it (see the rule above). */
export function readNumberText(input: string): NumberText {
  const notANumber = { ok: false, reason: 'not_a_number' } as const;
  let text = input.trim().replace(apostrophes, "'");
  if (text === '' || text.length > maxNumberText) return notANumber;
  // A sign may stand before the currency ("-€87.40") or after it ("€ -87.40"), once.
  let negative: boolean | null = null;
  if (sign.test(text)) {
    negative = text[0] !== '+';
    text = text.slice(1).trim();
  }
  const split = splitCurrency(text);
  if (!split) return notANumber;
  let rest = split.rest.trim();
  if (sign.test(rest)) {
    if (negative !== null) return notANumber;
    negative = rest[0] !== '+';
    rest = rest.slice(1).trim();
  }
  const read = readUnsigned(rest);
  if (!read.ok) {
    return read.reason === 'ambiguous_number' && negative ? { ...read, readings: [-read.readings[0], -read.readings[1]] } : read;
  }
  return { ok: true, value: negative && read.value !== 0 ? -read.value : read.value, currency: split.currency };
}
