import { describe, expect, it } from 'vitest';
import { buildRawMessage } from '../../testing/mail-servers/deliver';
import { headerValues, ingestMessage, messageIds } from './ingest';
import { ingestLimits } from './limits';

const mailbox = 'me@example.test';

describe('ingestMessage', () => {
  it('reads addresses, ids, dates, bodies, snippet and attachments by MIME position', async () => {
    const raw = await buildRawMessage({
      from: 'Alice Doe <alice@example.test>',
      to: ['Me <me@example.test>', 'bob@example.test'],
      cc: 'Carol <carol@example.test>',
      replyTo: 'replies@example.test',
      subject: 'Re: Quarterly   numbers',
      text: '  Hello\n\n\tthere,   see the numbers.  ',
      html: '<p>Hello <img src="cid:logo@x"></p>',
      messageId: '<m2@example.test>',
      inReplyTo: '<m1@example.test>',
      references: ['<m0@example.test>', '<m1@example.test>'],
      date: new Date('2026-03-01T10:00:00Z'),
      attachments: [
        { filename: 'numbers.csv', content: 'a,b\n1,2\n', contentType: 'text/csv' },
        { filename: 'logo.png', content: Buffer.from([137, 80, 78, 71]), contentType: 'image/png', contentDisposition: 'inline', cid: 'logo@x' },
      ],
    });
    const message = await ingestMessage(raw, { mailboxAddress: mailbox, mode: 'full' });
    expect(message.from).toEqual({ name: 'Alice Doe', email: 'alice@example.test' });
    expect(message.recipients).toEqual({
      to: [{ name: 'Me', email: 'me@example.test' }, { email: 'bob@example.test' }],
      cc: [{ name: 'Carol', email: 'carol@example.test' }],
      replyTo: [{ email: 'replies@example.test' }],
    });
    expect(message.subject).toBe('Re: Quarterly   numbers');
    expect(message.messageIdHeader).toBe('<m2@example.test>');
    expect(message.inReplyTo).toBe('<m1@example.test>');
    expect(message.references).toEqual(['<m0@example.test>', '<m1@example.test>']);
    expect(message.date?.toISOString()).toBe('2026-03-01T10:00:00.000Z');
    expect(message.dateHeader).toMatch(/2026/);
    expect(message.bodyText).toContain('see the numbers');
    expect(message.bodyHtml).toBe('<p>Hello <img src="cid:logo@x"></p>');
    expect(message.snippet).toBe('Hello there, see the numbers.');
    expect(message.bodyComplete).toBe(true);
    expect(message.hasAttachments).toBe(true);
    expect(message.attachments.map(({ content, ...rest }) => ({ ...rest, content: content?.toString('hex') }))).toEqual([
      // MIME order: the inline image sits in the multipart/related body, before the attached file.
      { position: 0, filename: 'logo.png', mime: 'image/png', size: 4, disposition: 'inline', contentId: 'logo@x', partRef: expect.any(String), content: '89504e47' },
      { position: 1, filename: 'numbers.csv', mime: 'text/csv', size: 8, disposition: 'attachment', contentId: null, partRef: '2', content: Buffer.from('a,b\n1,2\n').toString('hex') },
    ]);
    expect(message.signals).toEqual({ isAutoReply: false, isNoReply: false, isMailingList: false, isFromSelf: false, isBulk: false, isDeliveryReport: false, isCalendar: false });
    expect(message.listId).toBeNull();
  });

  it('keeps metadata but neither bodies nor content in processing_only mode', async () => {
    const raw = await buildRawMessage({
      from: 'me@example.test',
      to: 'x@example.test',
      subject: 'Mine',
      text: 'body text',
      attachments: [{ filename: 'a.txt', content: 'abc' }],
    });
    const message = await ingestMessage(raw, { mailboxAddress: 'ME@example.test', mode: 'processing_only' });
    expect(message.bodyText).toBeNull();
    expect(message.bodyHtml).toBeNull();
    expect(message.bodyComplete).toBe(false);
    expect(message.snippet).toBe('body text');
    expect(message.attachments).toMatchObject([{ position: 0, filename: 'a.txt', size: 3, content: null }]);
    expect(message.signals.isFromSelf).toBe(true);
  });

  it('reads signals from raw headers', async () => {
    const raw = await buildRawMessage({
      from: 'no-reply@lists.example.test',
      to: mailbox,
      subject: 'Out of office',
      text: 'away',
      headers: { 'Auto-Submitted': 'auto-replied', 'List-ID': '<dev.lists.example.test>' },
    });
    const message = await ingestMessage(raw, { mailboxAddress: mailbox, mode: 'full' });
    expect(message.signals).toEqual({
      isAutoReply: true,
      isNoReply: true,
      isMailingList: true,
      isFromSelf: false,
      isBulk: false,
      isDeliveryReport: false,
      isCalendar: false,
    });
    expect(message.listId).toBe('dev.lists.example.test');
  });

  it('derives the text and snippet of an HTML-only message', async () => {
    const raw = await buildRawMessage({ from: 'a@example.test', to: mailbox, subject: 'html', html: '<div><h1>Title</h1><p>First   paragraph</p></div>' });
    const message = await ingestMessage(raw, { mailboxAddress: mailbox, mode: 'full' });
    expect(message.bodyHtml).toContain('<h1>Title</h1>');
    expect(message.snippet).toMatch(/TITLE First paragraph|Title First paragraph/);
  });

  it('cuts giant bodies to their bound and says the body is not complete', async () => {
    const raw = await buildRawMessage({ from: 'a@example.test', to: mailbox, subject: 'big', text: 'x'.repeat(ingestLimits.textChars + 10) });
    const message = await ingestMessage(raw, { mailboxAddress: mailbox, mode: 'full' });
    expect(message.bodyText).toHaveLength(ingestLimits.textChars);
    expect(message.bodyComplete).toBe(false);
  });

  it('removes NUL and lone surrogates so PostgreSQL can store every field', async () => {
    const raw = Buffer.from('From: a@example.test\r\nSubject: bad\u0000subject\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nnul\u0000here\r\n');
    const message = await ingestMessage(raw, { mailboxAddress: mailbox, mode: 'full' });
    expect(message.subject).toBe('badsubject');
    expect(message.bodyText).toBe('nulhere\n');
    expect(message.bodyText!.isWellFormed()).toBe(true);
  });

  it.each([
    ['empty source', Buffer.alloc(0)],
    ['garbage', Buffer.from('\u0000\u0001\u0002 not a message at all')],
    ['header without body', Buffer.from('Subject: only a header\r\nFrom: a@example.test')],
    ['unterminated multipart', Buffer.from('From: a@example.test\r\nSubject: cut\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nstart of')],
    ['bad charset and encoding', Buffer.from('From: a@example.test\r\nSubject: =?x-unknown?Q?=FF?=\r\nContent-Type: text/plain; charset=x-nope\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!notbase64***\r\n')],
    ['bad date', Buffer.from('From: a@example.test\r\nDate: the day after tomorrow\r\n\r\nx')],
  ])('never throws on malformed MIME: %s', async (_name, raw) => {
    const message = await ingestMessage(raw, { mailboxAddress: mailbox, mode: 'full' });
    expect(message.date === null || !Number.isNaN(message.date.getTime())).toBe(true);
    expect(Array.isArray(message.attachments)).toBe(true);
  });

  it('keeps the sender and subject when the structure has more parts than the parser accepts', async () => {
    const parts = Array.from({ length: ingestLimits.mimeNodes + 10 }, (_, index) => `--b\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename="f${index}.txt"\r\n\r\nx\r\n`).join('');
    const raw = Buffer.from(`From: Big <big@example.test>\r\nSubject: many parts\r\nMessage-ID: <many@example.test>\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n${parts}--b--\r\n`);
    const message = await ingestMessage(raw, { mailboxAddress: mailbox, mode: 'full' });
    expect(message.from).toEqual({ name: 'Big', email: 'big@example.test' });
    expect(message.subject).toBe('many parts');
    expect(message.messageIdHeader).toBe('<many@example.test>');
    expect(message.bodyComplete).toBe(false);
    expect(message.attachments.length).toBeLessThanOrEqual(ingestLimits.attachments);
  });

  it('lists at most the bounded number of attachments', async () => {
    const count = ingestLimits.attachments + 5;
    const parts = Array.from({ length: count }, (_, index) => `--b\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename="f${index}.txt"\r\n\r\nx\r\n`).join('');
    const raw = Buffer.from(`From: a@example.test\r\nSubject: many\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n${parts}--b--\r\n`);
    const message = await ingestMessage(raw, { mailboxAddress: mailbox, mode: 'full' });
    expect(message.attachments).toHaveLength(ingestLimits.attachments);
    expect(message.attachments.at(-1)).toMatchObject({ position: ingestLimits.attachments - 1, filename: `f${ingestLimits.attachments - 1}.txt` });
    expect(message.hasAttachments).toBe(true);
    expect(message.bodyComplete).toBe(false);
  });

  it('survives a huge header block', async () => {
    const raw = Buffer.from(`From: a@example.test\r\nSubject: huge\r\nX-Big: ${'y'.repeat(2 * 1024 * 1024)}\r\n\r\nbody`);
    const message = await ingestMessage(raw, { mailboxAddress: mailbox, mode: 'full' });
    expect(message.bodyComplete).toBe(false);
  });

  it('bounds recipients and references', async () => {
    const to = Array.from({ length: 300 }, (_, index) => `r${index}@example.test`).join(', ');
    const references = Array.from({ length: 500 }, (_, index) => `<ref${index}@example.test>`).join(' ');
    const raw = Buffer.from(`From: a@example.test\r\nTo: ${to}\r\nReferences: ${references}\r\nSubject: wide\r\n\r\nbody`);
    const message = await ingestMessage(raw, { mailboxAddress: mailbox, mode: 'full' });
    expect(message.recipients.to).toHaveLength(ingestLimits.recipientsPerList);
    expect(message.references).toHaveLength(ingestLimits.references);
    expect(message.references[0]).toBe('<ref0@example.test>');
    expect(message.references.at(-1)).toBe('<ref499@example.test>');
  });
});

describe('messageIds', () => {
  it.each([
    ['<a@b>', ['<a@b>']],
    [' <a@b> <c@d>', ['<a@b>', '<c@d>']],
    ['a@b', ['<a@b>']],
    ['', []],
    ['two words', []],
    [['<a@b>', '<c@d>'], ['<a@b>', '<c@d>']],
    [undefined, []],
  ] as const)('%j → %j', (value, expected) => {
    expect(messageIds(value)).toEqual(expected);
  });
});

it('headerValues unfolds, bounds and keeps only the headers signals read', () => {
  const values = headerValues([
    { key: 'list-id', line: 'List-Id: Dev\r\n <dev.example.test>' },
    { key: 'subject', line: 'Subject: ignored' },
  ]);
  expect([...values.entries()]).toEqual([['list-id', ['Dev <dev.example.test>']]]);
});
