import { describe, expect, it } from 'vitest';
import { buildMime, envelopeRecipients, type MimeInput } from './mime';

const input: MimeInput = {
  from: 'me@example.test',
  to: ['Ann <ann@example.test>'],
  cc: ['cc@example.test'],
  bcc: ['hidden@example.test'],
  subject: 'Re: Plans — été',
  messageIdHeader: '<abc-123@example.test>',
  inReplyTo: '<orig@example.test>',
  references: ['<root@example.test>', '<orig@example.test>'],
  date: new Date('2026-03-04T05:06:07Z'),
  bodyText: 'Hello',
  bodyHtml: '<p>Hello</p>',
  attachments: [{ filename: 'notes.txt', mime: 'text/plain', content: Buffer.from('attached text') }],
};

function head(raw: Buffer): string {
  const text = raw.toString('utf8');
  return text.slice(0, text.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
}

describe('buildMime', () => {
  it('writes From, To, Cc, the chosen Message-ID, the threading headers and the Date', async () => {
    const headers = head(await buildMime(input));
    expect(headers).toMatch(/^From: me@example\.test$/m);
    expect(headers).toMatch(/^To: Ann <ann@example\.test>$/m);
    expect(headers).toMatch(/^Cc: cc@example\.test$/m);
    expect(headers).toMatch(/^Message-ID: <abc-123@example\.test>$/m);
    expect(headers).toMatch(/^In-Reply-To: <orig@example\.test>$/m);
    expect(headers).toMatch(/^References: <root@example\.test> <orig@example\.test>$/m);
    expect(headers).toMatch(/^Date: Wed, 04 Mar 2026 05:06:07 \+0000$/m);
    expect(headers).toMatch(/^Subject: =\?UTF-8\?/m);
  });

  it('sent mail carries the member\'s display name in From, quoted or encoded, never a header of its own', async () => {
    expect(head(await buildMime({ ...input, fromName: 'Ada Lovelace' }))).toMatch(/^From: Ada Lovelace <me@example\.test>$/m);
    expect(head(await buildMime({ ...input, fromName: 'Lovelace, Ada' }))).toMatch(/^From: "Lovelace, Ada" <me@example\.test>$/m);
    expect(head(await buildMime({ ...input, fromName: 'Zoé Ünal' }))).toMatch(/^From: =\?UTF-8\?.+\?= <me@example\.test>$/m);
    const injected = head(await buildMime({ ...input, fromName: 'Eve\r\nBcc: victim@example.test' }));
    expect(injected).not.toMatch(/^Bcc:/im);
    expect(injected).toMatch(/^From: .*Eve.* <me@example\.test>$/m);
    expect(head(await buildMime({ ...input, fromName: '  ' }))).toMatch(/^From: me@example\.test$/m);
  });

  it('leaves Bcc out of the delivered message and keeps it in the sent copy', async () => {
    expect(head(await buildMime(input))).not.toMatch(/^Bcc:/im);
    expect(head(await buildMime(input, { keepBcc: true }))).toMatch(/^Bcc: hidden@example\.test$/m);
  });

  it('carries the text, the HTML and the attachments', async () => {
    const raw = (await buildMime(input)).toString('utf8');
    expect(raw).toContain('multipart/mixed');
    expect(raw).toContain('multipart/alternative');
    expect(raw).toContain('filename=notes.txt');
    expect(raw).toContain(Buffer.from('attached text').toString('base64'));
  });

  it('makes a valid message without any body', async () => {
    const raw = await buildMime({ ...input, bodyText: null, bodyHtml: null, attachments: [] });
    expect(head(raw)).toMatch(/^Content-Type: text\/plain/m);
  });
});

describe('envelopeRecipients', () => {
  it('lists To, Cc and Bcc once each', () => {
    expect(envelopeRecipients({ to: ['a@x.test', 'B@x.test'], cc: ['b@x.test'], bcc: ['c@x.test', ' '] })).toEqual(['a@x.test', 'B@x.test', 'c@x.test']);
  });
});
