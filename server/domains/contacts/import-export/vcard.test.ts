import { describe, expect, it } from 'vitest';
import { escapeText, foldLine, readVcards, TooManyCardsError, unescapeText, VcardFileError, writeVcard } from './vcard';

const card = (...lines: string[]) => ['BEGIN:VCARD', ...lines, 'END:VCARD'].join('\r\n');

describe('readVcards reads the subset the address book maps', () => {
  it('vCard 4.0: FN, EMAIL, ORG, NOTE, LANG, KIND, escapes, groups and parameters', async () => {
    const [read] = await readVcards(
      card('VERSION:4.0', 'FN:Dupont\\, Jeanne', 'item1.EMAIL;TYPE=work:jeanne@example.com', 'ORG:Acme\\; Sons;Sales', 'NOTE:Line one\\nLine two', 'LANG;PREF=2:en', 'LANG;PREF=1:fr', 'KIND:individual'),
    );
    expect(read).toMatchObject({
      line: 1,
      version: '4.0',
      fn: 'Dupont, Jeanne',
      emails: ['jeanne@example.com'],
      org: 'Acme; Sons',
      note: 'Line one\nLine two',
      lang: 'fr',
      kind: 'individual',
      problems: [],
    });
  });

  it('unfolds lines continued by a space or a tab (RFC 6350 §3.2), LF-only files too', async () => {
    const [read] = await readVcards(['BEGIN:VCARD', 'VERSION:4.0', 'FN:Jean', 'NOTE:This is a lo', ' ng note that', '\t continues', 'EMAIL:a@', ' example.com', 'END:VCARD'].join('\n'));
    expect(read!.note).toBe('This is a long note that continues');
    expect(read!.emails).toEqual(['a@example.com']);
  });

  it('vCard 3.0: quoted-printable with soft breaks, in the CHARSET named, and bare TYPE parameters', async () => {
    const [read] = await readVcards(
      card(
        'VERSION:3.0',
        'FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Ren=C3=A9e',
        'NOTE;CHARSET=ISO-8859-1;ENCODING=QUOTED-PRINTABLE:Caf=E9 au lait, tr=',
        '=E8s bon',
        'EMAIL;INTERNET;PREF:renee@example.fr',
        'EMAIL;INTERNET:other@example.fr',
      ),
    );
    expect(read).toMatchObject({ version: '3.0', fn: 'Renée', note: 'Café au lait, très bon', emails: ['renee@example.fr', 'other@example.fr'], problems: [] });
  });

  it('an unknown charset, or bytes not valid in it, is an error of that card only', async () => {
    const cards = await readVcards(
      [card('VERSION:3.0', 'FN;CHARSET=X-NOPE;ENCODING=QUOTED-PRINTABLE:A=E9', 'EMAIL:a@example.com'), card('VERSION:3.0', 'NOTE;ENCODING=QUOTED-PRINTABLE:=FF=FE', 'EMAIL:b@example.com'), card('VERSION:4.0', 'EMAIL:c@example.com')].join('\r\n'),
    );
    expect(cards.map((read) => read.problems.map((problem) => problem.reason))).toEqual([['vcard_unknown_charset'], ['vcard_bad_encoding'], []]);
  });

  it('an unterminated BEGIN:VCARD is an error of its card; the next card still reads', async () => {
    const cards = await readVcards(['BEGIN:VCARD', 'VERSION:4.0', 'EMAIL:a@example.com', 'BEGIN:VCARD', 'VERSION:4.0', 'EMAIL:b@example.com', 'END:VCARD', 'BEGIN:VCARD', 'VERSION:4.0'].join('\r\n'));
    expect(cards.map((read) => [read.line, read.problems.map((problem) => problem.reason)])).toEqual([
      [1, ['vcard_unterminated']],
      [4, []],
      [8, ['vcard_unterminated']],
    ]);
  });

  it('bad lines: no colon, a bad name, a missing or unsupported VERSION, text outside a card', async () => {
    const cards = await readVcards(['stray text', card('VERSION:2.1', 'EMAIL:a@example.com'), card('EMAIL:b@example.com', 'no colon here', 'BAD NAME:x')].join('\r\n'));
    expect(cards.map((read) => read.problems.map((problem) => problem.reason))).toEqual([['vcard_outside_card'], ['vcard_version'], ['vcard_bad_line', 'vcard_bad_line', 'vcard_version']]);
  });

  it('__proto__ and constructor as property names or groups are ignored properties, nothing else', async () => {
    const [read] = await readVcards(card('VERSION:4.0', '__proto__:{"polluted":true}', 'CONSTRUCTOR:x', '__proto__.EMAIL:a@example.com', 'X-__PROTO__:y'));
    // A property name is letters, digits and `-` (RFC 6350 §3.3): `__proto__` is not one, CONSTRUCTOR is read past.
    expect(read!.problems.map((problem) => problem.reason)).toEqual(['vcard_bad_line', 'vcard_bad_line']);
    expect(read!.emails).toEqual(['a@example.com']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a binary file, or one without a card, is refused whole', async () => {
    await expect(readVcards('BEGIN:VCARD\r\nVERSION:4.0\r\nFN:\u0000\u0001\r\nEND:VCARD')).rejects.toThrow(VcardFileError);
    await expect(readVcards('\r\n\r\n')).rejects.toThrow(VcardFileError);
  });

  it('a card of more lines than the bound is an error; a file of line breaks only holds no card', async () => {
    const [read] = await readVcards(card('VERSION:4.0', ...Array.from({ length: 50 }, (_, index) => `EMAIL:a${index}@example.com`)), { maxCards: 10, maxLineChars: 1000, maxLinesPerCard: 10 });
    expect(read!.problems.map((problem) => problem.reason)).toEqual(['vcard_card_too_long']);
    await expect(readVcards('\n'.repeat(200_000))).rejects.toThrow(VcardFileError);
  });

  it('more cards than the bound stops the read at the first one past it', async () => {
    const file = Array.from({ length: 4 }, (_, index) => card('VERSION:4.0', `EMAIL:a${index}@example.com`)).join('\r\n');
    await expect(readVcards(file, { maxCards: 3, maxLineChars: 1000, maxLinesPerCard: 10 })).rejects.toThrow(TooManyCardsError);
  });

  it('a line longer than the bound is an error of its card, read without building a huge string', async () => {
    const long = `NOTE:${'x'.repeat(50)}`;
    const folded = ['BEGIN:VCARD', 'VERSION:4.0', 'EMAIL:a@example.com', long, ...Array.from({ length: 100 }, () => ` ${'y'.repeat(50)}`), 'END:VCARD'].join('\r\n');
    const [read] = await readVcards(folded, { maxCards: 10, maxLineChars: 1000, maxLinesPerCard: 10 });
    expect(read!.problems.map((problem) => problem.reason)).toEqual(['vcard_line_too_long']);
  });
});

describe('writeVcard writes vCard 4.0 that reads back', () => {
  it('escapes and folds at 75 octets without splitting a UTF-8 character; the reader gets the values back', async () => {
    const note = `Café, "quoted"; back\\slash\nnew line ${'é'.repeat(60)}`;
    const text = writeVcard({ kind: 'contact', value: 'jeanne@example.com', fn: 'Jeanne', lang: 'fr', note, status: 'vip', formality: 'vous', tone: 'formal' });
    for (const line of text.split('\r\n')) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    const [read] = await readVcards(text);
    expect(read).toMatchObject({ version: '4.0', fn: 'Jeanne', emails: ['jeanne@example.com'], lang: 'fr', note, status: 'vip', formality: 'vous', tone: 'formal', problems: [] });
  });

  it('a domain is KIND:org with X-DOMAIN', async () => {
    const [read] = await readVcards(writeVcard({ kind: 'domain', value: 'acme.example', fn: 'Acme' }));
    expect(read).toMatchObject({ kind: 'org', domains: ['acme.example'], emails: [] });
  });

  it('escape and unescape are inverse', () => {
    for (const text of ['a,b;c\\d', 'line\nbreak', '']) expect(unescapeText(escapeText(text))).toBe(text);
    expect(foldLine('short')).toBe('short\r\n');
  });
});
