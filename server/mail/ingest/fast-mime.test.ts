/**
 * The fast path (./fast-mime.ts) answers exactly what mailparser's stream answers (./parse-mime.ts
 * `parseMimeStream`), for every message it takes; the rest it leaves to mailparser. Over the real-world
 * corpus (server/testing/mail-corpus), the bench's sync corpus and hand-made shapes at the edges of
 * what the splitter decides (line endings, preamble and epilogue, delimiters left open, encodings).
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { mailCorpus, seeded } from '../../../bench/mail-sync-corpus';
import { corpusMessage, corpusNames } from '../../testing/mail-corpus';
import { fastParseMime, quotedPrintable } from './fast-mime';
import { ingestMessage } from './ingest';
import { parseMime, parseMimeStream, type ParsedMime } from './parse-mime';

/** libqp as mailsplit loads it (the decoder mailparser's stream runs). */
const fromMailsplit = createRequire(createRequire(createRequire(import.meta.url).resolve('mailparser')).resolve('@zone-eu/mailsplit/lib/mime-node'));
const libqp = fromMailsplit('libqp') as { decode: (input: Buffer) => Buffer };

/** A ParsedMime as plain data: the headers' Map as entries, Buffers as base64. */
function comparable(parsed: ParsedMime) {
  const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (_key, inner) => (inner instanceof Map ? [...inner.entries()] : inner)));
  return {
    ...parsed,
    headers: parsed.headers ? plain(parsed.headers) : null,
    headerLines: plain(parsed.headerLines),
    parts: parsed.parts.map((part) => ({ ...part, content: part.content ? part.content.toString('base64') : null })),
  };
}

async function expectSameAsMailparser(source: Buffer, keepContent = true): Promise<boolean> {
  const fast = fastParseMime(source, { keepContent });
  if (!fast) return false;
  expect(comparable(fast)).toEqual(comparable(await parseMimeStream(source, { keepContent })));
  return true;
}

describe('the fast MIME path answers as mailparser does', () => {
  it('on the real-world corpus: what it reads, it reads the same', async () => {
    const read: string[] = [];
    for (const name of corpusNames()) {
      for (const keepContent of [true, false]) if (await expectSameAsMailparser(corpusMessage(name), keepContent) && keepContent) read.push(name);
    }
    // Personal mail, list mail and notifications are mostly of the simple shapes; bounces, invitations
    // and flowed text are mailparser's.
    expect(read.length).toBeGreaterThan(5);
  });

  it('on the bench’s sync corpus (plain replies, newsletters, attachments): every message, the same answer', async () => {
    const corpus = await mailCorpus(400, { seed: 3 });
    for (const message of corpus) expect(await expectSameAsMailparser(message.raw)).toBe(true);
  });

  it('through ingest too: the mirror fields of a message are those mailparser’s parse gives', async () => {
    const [first, newsletter] = await mailCorpus(2, { seed: 9 });
    for (const message of [first!, newsletter!]) {
      const options = { mailboxAddress: 'me@example.test', mode: 'full' as const };
      const viaFast = await ingestMessage(message.raw, options);
      // Forced through the stream: the same function's answer with the fast path out of the way.
      const streamed = await parseMimeStream(message.raw, { keepContent: true });
      expect(comparable(await parseMime(message.raw, { keepContent: true }))).toEqual(comparable(streamed));
      expect(viaFast.bodyText).toBe(streamed.text);
    }
  });

  it.each([
    ['plain text, LF line endings', 'From: a@x.test\nTo: b@x.test\nSubject: Hi\n\nLine one\nLine two\n'],
    ['no Content-Type, no final line ending', 'From: "Ann" <a@x.test>\r\nSubject: =?UTF-8?Q?Caf=C3=A9?=\r\n\r\nBody without end'],
    ['quoted-printable with soft breaks and trailing blanks', 'From: a@x.test\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nCaf=C3=A9 au lait, long line that is =\r\nsoft broken  \r\nend=\r\n'],
    ['base64 text', `From: a@x.test\r\nContent-Type: text/plain; charset=UTF-8\r\nContent-Transfer-Encoding: base64\r\n\r\n${Buffer.from('Grüße aus Köln\nzweite Zeile').toString('base64')}\r\n`],
    [
      'alternative with preamble and epilogue',
      'From: a@x.test\r\nMIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary="b1"\r\n\r\nThis is a preamble.\r\n--b1\r\nContent-Type: text/plain\r\n\r\nPlain\r\n\r\n--b1\r\nContent-Type: text/html; charset=us-ascii\r\n\r\n<p>HTML</p>\r\n--b1--\r\nEpilogue text\r\n',
    ],
    [
      'mixed: alternative, then an attachment with an RFC 2231 name, a Content-ID and an octet-stream type',
      "From: a@x.test\r\nContent-Type: multipart/mixed; boundary=outer\r\n\r\n--outer\r\nContent-Type: multipart/alternative; boundary=inner\r\n\r\n--inner\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nHello =E2=9C=93\r\n--inner\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<b>Hello</b>\r\n--inner--\r\n\r\n--outer\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename*=utf-8''r%C3%A9sum%C3%A9.pdf\r\nContent-ID: <part1@x>\r\nContent-Transfer-Encoding: base64\r\n\r\nJVBERi0xLjQK\r\nJSVFT0YK\r\n--outer--\r\n",
    ],
    ['an empty attachment and an empty text', 'From: a@x.test\r\nContent-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\nContent-Type: text/plain\r\n\r\n\r\n--x\r\nContent-Type: image/png\r\nContent-Disposition: attachment; filename=a.png\r\n\r\n\r\n--x--\r\n'],
    ['bodies of one line ending, before a delimiter and before a closing one', 'From: a@x.test\r\nContent-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\nContent-Type: text/plain\r\n\r\n\r\n--x\r\nContent-Type: text/plain; name=b.txt\r\nContent-Disposition: attachment\r\n\r\n\n--x--\r\n'],
    ['a text part given as an attachment', 'From: a@x.test\r\nContent-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\nContent-Type: text/plain\r\n\r\nBody\r\n--x\r\nContent-Type: text/plain; name=notes.txt\r\nContent-Disposition: attachment\r\n\r\nNotes\r\n--x--\r\n'],
  ])('%s', async (_name, text) => {
    expect(await expectSameAsMailparser(Buffer.from(text))).toBe(true);
  });

  it.each([
    ['latin-1 text', 'From: a@x.test\r\nContent-Type: text/plain; charset=iso-8859-1\r\n\r\nCaf\xe9\r\n'],
    ['format=flowed', 'From: a@x.test\r\nContent-Type: text/plain; format=flowed\r\n\r\nA flowed \r\nline\r\n'],
    ['HTML alone (mailparser derives the text)', 'From: a@x.test\r\nContent-Type: text/html\r\n\r\n<p>Only HTML</p>\r\n'],
    ['multipart/related', 'From: a@x.test\r\nContent-Type: multipart/related; boundary=r\r\n\r\n--r\r\nContent-Type: text/html\r\n\r\n<img src="cid:a">\r\n--r\r\nContent-Type: image/png\r\nContent-ID: <a>\r\n\r\nxx\r\n--r--\r\n'],
    ['a closing delimiter left out', 'From: a@x.test\r\nContent-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\nContent-Type: text/plain\r\n\r\nBody\r\n'],
    ['an attached message', 'From: a@x.test\r\nContent-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\nContent-Type: text/plain\r\n\r\nSee below\r\n--x\r\nContent-Type: message/rfc822\r\nContent-Disposition: inline\r\n\r\nSubject: inner\r\n\r\ninner body\r\n--x--\r\n'],
    ['base64 with padding in the middle', 'From: a@x.test\r\nContent-Transfer-Encoding: base64\r\n\r\nQQ==QQ==\r\n'],
  ])('leaves %s to mailparser, and parseMime still answers as mailparser', async (_name, text) => {
    const source = Buffer.from(text, 'binary');
    expect(fastParseMime(source, { keepContent: true })).toBeNull();
    expect(comparable(await parseMime(source, { keepContent: true }))).toEqual(comparable(await parseMimeStream(source, { keepContent: true })));
  });
});

describe('bodies shaped to make a pattern work in the square of their length (mail is anyone’s input)', () => {
  // Each of these took one to five minutes before (seconds for 40 KB, growing with the square), past the test's
  // timeout; linear, they take milliseconds.
  const size = 256 * 1024;
  const message = (encoding: string, body: string) =>
    Buffer.from(`From: a@example.test\r\nTo: b@example.test\r\nSubject: s\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: ${encoding}\r\n\r\n${body}`, 'latin1');

  it('a quoted-printable body with 256 KB of blanks before a word, and a blank before a line end', () => {
    const body = `a${' '.repeat(size)}b \r\nc`;
    expect(quotedPrintable(Buffer.from(body, 'latin1')).toString('latin1')).toBe(`a${' '.repeat(size)}b\r\nc`);
    expect(fastParseMime(message('quoted-printable', body), { keepContent: true })?.text).toBe(`a${' '.repeat(size)}b\nc`);
  });

  it('a base64 body of 256 KB of line ends and then a character outside the alphabet goes to mailparser', () => {
    expect(fastParseMime(message('base64', `${'\r\n'.repeat(size / 2)}!`), { keepContent: true })).toBeNull();
  });
});

describe('quoted-printable', () => {
  it('decodes exactly as libqp does, on seeded random input full of its special cases', () => {
    const random = seeded(25);
    const alphabet = ['=', '=', '=\r\n', '=\n', '\r\n', '\n', '\r', ' ', '\t', 'A', 'f', '3', 'g', 'é', '\u00ff', '=4', '=E9', '=e9', '==41', '=\t\r\n'];
    for (let round = 0; round < 3000; round += 1) {
      let text = '';
      const length = Math.floor(random() * 40);
      for (let index = 0; index < length; index += 1) text += alphabet[Math.floor(random() * alphabet.length)];
      const body = Buffer.from(text, 'latin1');
      expect(quotedPrintable(body).toString('hex'), JSON.stringify(text)).toBe(libqp.decode(body).toString('hex'));
    }
  });
});
