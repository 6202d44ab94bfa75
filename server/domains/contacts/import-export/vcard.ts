/**
 * A small, strict vCard reader and writer for the subset the address book maps (RFC 6350 for 4.0,
 * RFC 2426 for 3.0): FN, EMAIL, ORG, NOTE, LANG, KIND and our X- properties (X-DOMAIN, X-STATUS,
 * X-FORMALITY, X-TONE, written by our export so a file round-trips). Every other property is read past.
 *
 * Reading: content lines are unfolded (a line break followed by one space or tab continues the line;
 * 3.0's quoted-printable soft breaks, a line ending in `=`, too), split into group, name, parameters
 * and value, and text values unescaped (`\n`, `\,`, `\;`, `\\`). 3.0's `ENCODING=QUOTED-PRINTABLE`
 * (or `QUOTED-PRINTABLE` bare) is decoded to bytes, then to text in the `CHARSET` named (UTF-8 when
 * none); an unknown charset is an error of that card. Each card is a BEGIN:VCARD … END:VCARD block
 * with VERSION 3.0 or 4.0; what is wrong inside a card is that card's error (its first line is its
 * line number), the other cards still read. A file that is not text (a NUL or another control
 * character) is refused whole. Browser-safe (no Node API): the tests run it directly.
 *
 * Properties are kept in plain arrays by name, never as object keys, so `__proto__` or `constructor`
 * as a property name is just an ignored property.
 */

export interface VcardProblem {
  /** The property (FN, EMAIL…) or null for the card as a whole. */
  property: string | null;
  reason: string;
  message: string;
}

export interface VcardCard {
  /** The line of its BEGIN:VCARD (1-based, as an editor shows it). */
  line: number;
  version: '3.0' | '4.0' | null;
  fn: string | null;
  emails: string[];
  /** X-DOMAIN (ours): the domains of a `KIND:org` card. */
  domains: string[];
  org: string | null;
  note: string | null;
  lang: string | null;
  kind: string | null;
  /** X-STATUS, X-FORMALITY, X-TONE (ours), lower-cased. */
  status: string | null;
  formality: string | null;
  tone: string | null;
  /** The properties present among those we map (a property absent leaves the card's field as it is). */
  present: Set<MappedProperty>;
  problems: VcardProblem[];
}

export type MappedProperty = 'FN' | 'EMAIL' | 'ORG' | 'NOTE' | 'LANG' | 'KIND' | 'X-DOMAIN' | 'X-STATUS' | 'X-FORMALITY' | 'X-TONE';
const mapped: ReadonlySet<string> = new Set<MappedProperty>(['FN', 'EMAIL', 'ORG', 'NOTE', 'LANG', 'KIND', 'X-DOMAIN', 'X-STATUS', 'X-FORMALITY', 'X-TONE']);

export interface VcardLimits {
  /** Cards in the file; one more stops the read (TooManyCardsError). */
  maxCards: number;
  /** Characters of one unfolded content line. */
  maxLineChars: number;
  /** Content lines in one card. */
  maxLinesPerCard: number;
}

export const defaultVcardLimits: VcardLimits = { maxCards: 5_000, maxLineChars: 20_000, maxLinesPerCard: 1_000 };

export class TooManyCardsError extends Error {
  constructor(readonly maxCards: number) {
    super(`more than ${maxCards} cards`);
  }
}

/** The file is not a vCard file at all (binary, no card): refused whole, with a reason. */
export class VcardFileError extends Error {
  constructor(
    readonly reason: 'vcard_binary' | 'vcard_empty',
    message: string,
  ) {
    super(message);
  }
}

interface LogicalLine {
  /** Line number of its first physical line. */
  line: number;
  text: string;
}

interface ContentLine {
  name: string;
  params: { name: string; values: string[] }[];
  value: string;
}

// C0 controls other than tab, LF, CR, and DEL: a text file never holds them.
// eslint-disable-next-line no-control-regex
const binary = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

function isQuotedPrintable(text: string): boolean {
  const head = text.slice(0, Math.max(0, text.indexOf(':'))).toUpperCase();
  return /;(ENCODING=)?QUOTED-PRINTABLE(;|$)/.test(head);
}

/** Physical lines found one at a time (no array of two million strings for a file of line breaks). */
function* physicalLines(text: string): Generator<string> {
  const breaks = /\r\n|\n|\r/g;
  let start = 0;
  for (let found = breaks.exec(text); found !== null; found = breaks.exec(text)) {
    yield text.slice(start, found.index);
    start = found.index + found[0].length;
  }
  yield text.slice(start);
}

/** Physical lines read between two turns of the event loop. */
const linesPerTurn = 2048;

/**
 * Physical lines → logical lines (RFC 6350 §3.2 folding; 3.0 quoted-printable soft breaks), one at a
 * time; `null` every `linesPerTurn` physical lines, where the reader gives the event loop a turn.
 */
function* unfold(text: string, maxLineChars: number): Generator<LogicalLine | null> {
  let current: LogicalLine | null = null;
  let number = 0;
  for (const raw of physicalLines(text)) {
    number += 1;
    if (number % linesPerTurn === 0) yield null;
    const continues = current !== null && (raw.startsWith(' ') || raw.startsWith('\t'));
    const softBreak = current !== null && !continues && current.text.endsWith('=') && isQuotedPrintable(current.text);
    if (continues || softBreak) {
      // Past the ceiling a line only waits for its end: one character over is enough to refuse it, and
      // appending to it would copy a long string once per continuation line.
      if (current!.text.length > maxLineChars) continue;
      const piece = continues ? raw.slice(1) : raw;
      current!.text = softBreak ? current!.text.slice(0, -1) + piece : current!.text + piece;
      if (current!.text.length > maxLineChars) current!.text = current!.text.slice(0, maxLineChars + 1);
      continue;
    }
    if (current) yield current;
    // A blank line ends the line before it and is no line itself.
    current = raw.trim() === '' ? null : { line: number, text: raw.length > maxLineChars ? raw.slice(0, maxLineChars + 1) : raw };
  }
  if (current) yield current;
}

/** A turn of the event loop (browser-safe: no setImmediate), so a large file never blocks other requests. */
const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Splits at `sep` outside double quotes. */
function splitOutsideQuotes(text: string, sep: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === '"') quoted = !quoted;
    else if (char === sep && !quoted) {
      parts.push(text.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

function unquote(text: string): string {
  return text.length >= 2 && text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : text;
}

/** `[group.]name *(;param) : value`; null when the line has no name or no colon. */
function parseContentLine(text: string): ContentLine | null {
  let quoted = false;
  let colon = -1;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === '"') quoted = !quoted;
    else if (char === ':' && !quoted) {
      colon = index;
      break;
    }
  }
  if (colon <= 0) return null;
  const [head, ...paramTexts] = splitOutsideQuotes(text.slice(0, colon), ';');
  const dot = head!.lastIndexOf('.');
  const name = (dot >= 0 ? head!.slice(dot + 1) : head!).toUpperCase();
  if (!/^[A-Z0-9-]+$/.test(name)) return null;
  const params = paramTexts.map((param) => {
    const equals = param.indexOf('=');
    // 3.0 allows a bare parameter value (EMAIL;INTERNET;PREF:…): it is a TYPE, or an ENCODING.
    if (equals < 0) {
      const bare = param.toUpperCase();
      return { name: bare === 'QUOTED-PRINTABLE' || bare === 'BASE64' || bare === 'B' ? 'ENCODING' : 'TYPE', values: [param] };
    }
    return { name: param.slice(0, equals).toUpperCase(), values: splitOutsideQuotes(param.slice(equals + 1), ',').map(unquote) };
  });
  return { name, params, value: text.slice(colon + 1) };
}

const paramOf = (line: ContentLine, name: string) => line.params.find((param) => param.name === name)?.values[0];

/** RFC 6350 §3.4 text unescaping: `\n` `\N` → newline, `\,` `\;` `\\` → the character. */
export function unescapeText(text: string): string {
  return text.replace(/\\([nN,;\\:])/g, (_, char: string) => (char === 'n' || char === 'N' ? '\n' : char));
}

function decodeQuotedPrintable(text: string, charset: string): string {
  const bytes: number[] = [];
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (char === '=' && /^[0-9A-Fa-f]{2}$/.test(text.slice(index + 1, index + 3))) {
      bytes.push(parseInt(text.slice(index + 1, index + 3), 16));
      index += 2;
    } else {
      const code = char.charCodeAt(0);
      if (code > 0x7f) throw new Error('not quoted-printable');
      bytes.push(code);
    }
  }
  // fatal: bytes that are not valid in the charset are an error, not replacement characters.
  return new TextDecoder(charset, { fatal: true }).decode(new Uint8Array(bytes));
}

/** The value as text: decoded (3.0 quoted-printable, charset), then unescaped unless `structured`. */
function textOf(line: ContentLine, card: VcardCard): string | null {
  const encoding = paramOf(line, 'ENCODING')?.toUpperCase();
  const charset = paramOf(line, 'CHARSET') ?? 'utf-8';
  let value = line.value;
  if (encoding === 'QUOTED-PRINTABLE') {
    try {
      value = decodeQuotedPrintable(value, charset);
    } catch (error) {
      const unknown = error instanceof RangeError;
      card.problems.push({
        property: line.name,
        reason: unknown ? 'vcard_unknown_charset' : 'vcard_bad_encoding',
        message: unknown ? `${line.name}: the charset ${charset.slice(0, 40)} is not known.` : `${line.name}: the quoted-printable value does not decode as ${charset.slice(0, 40)}.`,
      });
      return null;
    }
  } else if (encoding !== undefined && encoding !== '8BIT') {
    card.problems.push({ property: line.name, reason: 'vcard_bad_encoding', message: `${line.name}: the encoding ${encoding.slice(0, 40)} is not read (text only).` });
    return null;
  } else if (paramOf(line, 'CHARSET') !== undefined && !/^utf-?8$/i.test(charset)) {
    // A charset on an unencoded value: the file arrived as text already; only UTF-8 is meant.
    card.problems.push({ property: line.name, reason: 'vcard_unknown_charset', message: `${line.name}: the charset ${charset.slice(0, 40)} applies to encoded values only.` });
    return null;
  }
  return value;
}

/** The PREF=1 value first (4.0 `PREF=1`, 3.0 `TYPE=PREF`), then file order. */
function preference(line: ContentLine): number {
  const pref = paramOf(line, 'PREF');
  if (pref !== undefined && /^\d+$/.test(pref)) return Number(pref);
  if (line.params.some((param) => param.name === 'TYPE' && param.values.some((value) => value.toUpperCase() === 'PREF'))) return 1;
  return 101;
}

function emptyCard(line: number): VcardCard {
  return {
    line,
    version: null,
    fn: null,
    emails: [],
    domains: [],
    org: null,
    note: null,
    lang: null,
    kind: null,
    status: null,
    formality: null,
    tone: null,
    present: new Set(),
    problems: [],
  };
}

function readCard(card: VcardCard, lines: LogicalLine[], limits: VcardLimits): void {
  if (lines.length > limits.maxLinesPerCard) {
    card.problems.push({ property: null, reason: 'vcard_card_too_long', message: `The card has more than ${limits.maxLinesPerCard} lines.` });
    return;
  }
  const emails: { value: string; pref: number; order: number }[] = [];
  const langs: { value: string; pref: number; order: number }[] = [];
  for (const logical of lines) {
    if (logical.text.trim() === '') continue;
    if (logical.text.length > limits.maxLineChars) {
      card.problems.push({ property: null, reason: 'vcard_line_too_long', message: `Line ${logical.line}: longer than ${limits.maxLineChars} characters.` });
      continue;
    }
    const line = parseContentLine(logical.text);
    if (!line) {
      card.problems.push({ property: null, reason: 'vcard_bad_line', message: `Line ${logical.line}: not a vCard content line (name:value).` });
      continue;
    }
    if (line.name === 'VERSION') {
      const version = line.value.trim();
      if (version === '3.0' || version === '4.0') card.version = version;
      else card.problems.push({ property: 'VERSION', reason: 'vcard_version', message: `VERSION ${version.slice(0, 20)}: only 3.0 and 4.0 are read.` });
      continue;
    }
    if (line.name === 'BEGIN' || line.name === 'END') {
      card.problems.push({ property: line.name, reason: 'vcard_nested', message: `Line ${logical.line}: ${line.name} inside a card (nested cards are not read).` });
      continue;
    }
    if (!mapped.has(line.name)) continue;
    const text = textOf(line, card);
    if (text === null) continue;
    const name = line.name as MappedProperty;
    card.present.add(name);
    const order = emails.length + langs.length;
    switch (name) {
      case 'EMAIL':
        emails.push({ value: unescapeText(text).trim(), pref: preference(line), order });
        break;
      case 'LANG':
        langs.push({ value: unescapeText(text).trim(), pref: preference(line), order });
        break;
      case 'X-DOMAIN':
        if (unescapeText(text).trim() !== '') card.domains.push(unescapeText(text).trim());
        break;
      case 'ORG':
        // Structured (name;unit;…): the organisation's name, its first component.
        card.org = unescapeText(splitEscaped(text, ';')[0] ?? '').trim() || null;
        break;
      case 'FN':
        card.fn = unescapeText(text).trim() || null;
        break;
      case 'NOTE':
        card.note = card.note === null ? unescapeText(text) : `${card.note}\n${unescapeText(text)}`;
        break;
      case 'KIND':
        card.kind = unescapeText(text).trim().toLowerCase() || null;
        break;
      case 'X-STATUS':
        card.status = unescapeText(text).trim().toLowerCase() || null;
        break;
      case 'X-FORMALITY':
        card.formality = unescapeText(text).trim().toLowerCase() || null;
        break;
      case 'X-TONE':
        card.tone = unescapeText(text).trim().toLowerCase() || null;
        break;
    }
  }
  const byPreference = (a: { pref: number; order: number }, b: { pref: number; order: number }) => a.pref - b.pref || a.order - b.order;
  card.emails = emails.sort(byPreference).map((email) => email.value).filter((value) => value !== '');
  card.lang = langs.sort(byPreference)[0]?.value || null;
  if (card.version === null && !card.problems.some((problem) => problem.property === 'VERSION')) {
    card.problems.push({ property: 'VERSION', reason: 'vcard_version', message: 'The card has no VERSION (3.0 or 4.0).' });
  }
}

/** Splits a structured value at unescaped `sep`. */
function splitEscaped(text: string, sep: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let index = 0; index < text.length; index += 1) {
    if (text[index] === '\\') index += 1;
    else if (text[index] === sep) {
      parts.push(text.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/**
 * The cards of a vCard file. Lines outside a card that are not blank make an error card of their own
 * (so the preview shows where), an unterminated BEGIN:VCARD makes its card an error. Asynchronous: the
 * event loop gets a turn every few thousand lines (a 2 MiB file of tiny lines took a second at once).
 */
export async function readVcards(text: string, limits: VcardLimits = defaultVcardLimits): Promise<VcardCard[]> {
  const withoutBom = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (binary.test(withoutBom)) throw new VcardFileError('vcard_binary', 'The file is not text (it holds control characters): not a vCard file.');
  const cards: VcardCard[] = [];
  let open: { card: VcardCard; lines: LogicalLine[] } | null = null;
  let stray: VcardCard | null = null;
  const push = (card: VcardCard) => {
    if (cards.length >= limits.maxCards) throw new TooManyCardsError(limits.maxCards);
    cards.push(card);
  };
  for (const logical of unfold(withoutBom, limits.maxLineChars)) {
    if (logical === null) {
      await nextTurn();
      continue;
    }
    const upper = logical.text.trim().toUpperCase();
    if (open === null) {
      if (upper === 'BEGIN:VCARD') {
        stray = null;
        open = { card: emptyCard(logical.line), lines: [] };
      } else if (stray === null) {
        // One error per run of stray lines, at its first line.
        stray = emptyCard(logical.line);
        stray.problems.push({ property: null, reason: 'vcard_outside_card', message: `Line ${logical.line}: text outside BEGIN:VCARD … END:VCARD.` });
        push(stray);
      }
      continue;
    }
    if (upper === 'END:VCARD') {
      readCard(open.card, open.lines, limits);
      push(open.card);
      open = null;
      continue;
    }
    if (upper === 'BEGIN:VCARD') {
      // The previous card never ended: it is an error, and this line starts a new one.
      open.card.problems.push({ property: null, reason: 'vcard_unterminated', message: `The card starting at line ${open.card.line} has no END:VCARD.` });
      push(open.card);
      open = { card: emptyCard(logical.line), lines: [] };
      continue;
    }
    // One past the ceiling is enough to refuse the card (readCard); a card of a million lines keeps no more.
    if (open.lines.length <= limits.maxLinesPerCard) open.lines.push(logical);
  }
  if (open) {
    open.card.problems.push({ property: null, reason: 'vcard_unterminated', message: `The card starting at line ${open.card.line} has no END:VCARD.` });
    push(open.card);
  }
  if (cards.length === 0) throw new VcardFileError('vcard_empty', 'The file holds no card (BEGIN:VCARD … END:VCARD).');
  return cards;
}

// ---------------------------------------------------------------------------------------------------
// Writing (vCard 4.0)

/** RFC 6350 §3.4 escaping of a text value. */
export function escapeText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\r\n|\n|\r/g, '\\n').replace(/,/g, '\\,').replace(/;/g, '\\;');
}

const encoder = new TextEncoder();

/** Folds a content line at 75 octets (never inside a UTF-8 sequence), CRLF line ends. */
export function foldLine(line: string): string {
  if (encoder.encode(line).length <= 75) return `${line}\r\n`;
  const pieces: string[] = [];
  let current = '';
  let octets = 0;
  let limit = 75;
  for (const char of line) {
    const size = encoder.encode(char).length;
    if (octets + size > limit) {
      pieces.push(current);
      current = '';
      octets = 0;
      // Continuation lines start with a space, which counts in their 75 octets.
      limit = 74;
    }
    current += char;
    octets += size;
  }
  pieces.push(current);
  return `${pieces.join('\r\n ')}\r\n`;
}

export interface VcardOut {
  kind: 'contact' | 'domain';
  value: string;
  fn?: string | null;
  lang?: string | null;
  note?: string | null;
  status?: string | null;
  formality?: string | null;
  tone?: string | null;
}

/**
 * One vCard 4.0 card. vCard has no property for "every address of a domain": a domain entry is written
 * `KIND:org` with the domain in `X-DOMAIN` (ours), which the reader takes back.
 */
export function writeVcard(card: VcardOut): string {
  const lines = ['BEGIN:VCARD', 'VERSION:4.0'];
  // FN is required by RFC 6350: the display name, else the value itself.
  lines.push(`FN:${escapeText(card.fn ?? card.value)}`);
  if (card.kind === 'domain') {
    lines.push('KIND:org', `X-DOMAIN:${escapeText(card.value)}`);
  } else {
    lines.push(`EMAIL:${escapeText(card.value)}`);
  }
  if (card.lang) lines.push(`LANG:${escapeText(card.lang)}`);
  if (card.note) lines.push(`NOTE:${escapeText(card.note)}`);
  if (card.status) lines.push(`X-STATUS:${escapeText(card.status)}`);
  if (card.formality) lines.push(`X-FORMALITY:${escapeText(card.formality)}`);
  if (card.tone) lines.push(`X-TONE:${escapeText(card.tone)}`);
  lines.push('END:VCARD');
  return lines.map(foldLine).join('');
}
