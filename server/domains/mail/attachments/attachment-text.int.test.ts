/**
 * The attachments' text for the AI nodes on mail mirrored for real (nodemailer sources through the
 * mirror writer): which attachments are read and in what order, each within its bounds, and a note
 * for every one that cannot be read; never a failure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionActor } from '../../../core/auth/access';
import { db } from '../../../core/db';
import { closePdfPool } from '../../../mail/pdf/pdf-text-pool';
import { createMember, type TestMember } from '../../../testing/factories';
import { createMailbox, mirrorRawMessage } from '../../../testing/mail-factories';
import { buildRawMessage, type RawMessageFields } from '../../../testing/mail-servers/deliver';
import { invoicePdfLines, minimalPdf } from '../../../testing/pdf-fixtures';
import { useTestDatabase } from '../../../testing/test-database';
import { attachmentTextsOf, readableKindOf } from './attachment-text';

await useTestDatabase();

const bounds = { attachments: 3, pdfBytes: 2 * 1024 * 1024, pdfPages: 20, textBytes: 32 * 1024 };
let member: TestMember;
let other: TestMember;

beforeAll(async () => {
  member = await createMember();
  other = await createMember();
});
afterAll(async () => {
  await closePdfPool();
});

const actorOf = (who: TestMember): ExecutionActor => ({ kind: 'execution', member: { id: who.id } as ExecutionActor['member'], executionId: 'exec' });

async function mirrored(attachments: NonNullable<RawMessageFields['attachments']>, syncMode: 'full' | 'processing_only' = 'full') {
  const mailbox = await createMailbox(member);
  const source = await buildRawMessage({ from: 'billing@supplier.test', to: mailbox.address, subject: 'Documents', text: 'See attached.', attachments });
  await mirrorRawMessage(mailbox, source, { syncMode });
  return { mailbox, messageId: (await db().mailMessage.findFirstOrThrow({ where: { mailboxId: mailbox.id }, select: { id: true } })).id };
}

describe('readableKindOf', () => {
  it.each([
    ['application/pdf', 'a.pdf', 'pdf'],
    ['Application/PDF; name=a.pdf', 'a', 'pdf'],
    ['application/octet-stream', 'Invoice.PDF', 'pdf'],
    ['text/plain', 'notes', 'text'],
    ['text/csv', 'rows.csv', 'text'],
    ['application/octet-stream', 'rows.csv', 'text'],
    ['image/png', 'logo.png', null],
    ['text/html', 'page.html', null],
    ['application/octet-stream', 'setup.exe', null],
  ])('%s named %s → %s', (mime, filename, kind) => {
    expect(readableKindOf({ mime, filename })).toBe(kind);
  });
});

describe('attachmentTextsOf', () => {
  it('reads PDFs and text files in MIME order, the first three; images are not candidates; the rest are counted', async () => {
    const { messageId } = await mirrored([
      { filename: 'logo.png', content: Buffer.from('89504e470d0a1a0a', 'hex'), contentType: 'image/png' },
      { filename: 'INV-2024-0042.pdf', content: minimalPdf([invoicePdfLines]), contentType: 'application/pdf' },
      { filename: 'notes.txt', content: Buffer.from('Pay by transfer.\nMerci — Zoë'), contentType: 'text/plain' },
      { filename: 'locked.pdf', content: minimalPdf([['secret']], { encrypted: true }), contentType: 'application/pdf' },
      { filename: 'extra.csv', content: Buffer.from('a,b\n1,2\n'), contentType: 'text/csv' },
    ]);
    const found = await attachmentTextsOf(actorOf(member), messageId, bounds);
    expect(found).toEqual({
      read: [
        { filename: 'INV-2024-0042.pdf', contentType: 'application/pdf', text: invoicePdfLines.join('\n'), truncated: false, note: null },
        { filename: 'notes.txt', contentType: 'text/plain', text: 'Pay by transfer.\nMerci — Zoë', truncated: false, note: null },
        { filename: 'locked.pdf', contentType: 'application/pdf', text: null, truncated: false, note: 'could not read: it is protected by a password' },
      ],
      left: 1,
    });
  });

  it('bounds each attachment: a PDF over the size bound is not read, a long PDF gives its first pages, a long text file is cut on a character; Latin-1 text is decoded', async () => {
    const pages = Array.from({ length: 25 }, (_, index) => [`Page ${index + 1}`]);
    const { messageId } = await mirrored([
      { filename: 'big.pdf', content: Buffer.concat([minimalPdf([['big']]), Buffer.alloc(2 * 1024 * 1024, 0x20)]), contentType: 'application/pdf' },
      { filename: 'long.pdf', content: minimalPdf(pages), contentType: 'application/pdf' },
      { filename: 'long.txt', content: Buffer.from('é'.repeat(20_000)), contentType: 'text/plain' },
    ]);
    const found = await attachmentTextsOf(actorOf(member), messageId, bounds);
    expect(found!.read[0]).toMatchObject({ filename: 'big.pdf', text: null, note: 'could not read: it is larger than 2 MB (2,049 KB)' });
    expect(found!.read[1]).toMatchObject({ filename: 'long.pdf', truncated: true, note: 'read the first 20 of 25 pages' });
    expect(found!.read[1]!.text).toContain('Page 20');
    expect(found!.read[1]!.text).not.toContain('Page 21');
    expect(found!.read[2]).toMatchObject({ filename: 'long.txt', truncated: true, note: 'cut at 32 KB of text', text: 'é'.repeat(16_384) });

    const latin = await mirrored([{ filename: 'legacy.txt', content: Buffer.from('Facture réglée', 'latin1'), contentType: 'application/octet-stream' }]);
    expect((await attachmentTextsOf(actorOf(member), latin.messageId, bounds))!.read).toEqual([
      { filename: 'legacy.txt', contentType: 'text/plain', text: 'Facture réglée', truncated: false, note: null },
    ]);
  });

  it('a broken PDF and a PDF without text give notes, never a failure', async () => {
    const { messageId } = await mirrored([
      { filename: 'broken.pdf', content: Buffer.from('%PDF-1.4\nnot really'), contentType: 'application/pdf' },
      { filename: 'blank.pdf', content: minimalPdf([[]]), contentType: 'application/pdf' },
    ]);
    expect((await attachmentTextsOf(actorOf(member), messageId, bounds))!.read).toEqual([
      { filename: 'broken.pdf', contentType: 'application/pdf', text: null, truncated: false, note: 'could not read: it is not a readable PDF' },
      { filename: 'blank.pdf', contentType: 'application/pdf', text: null, truncated: false, note: 'could not read: it has no text layer (a scanned image?)' },
    ]);
  });

  it('content the mirror does not keep and the server cannot give: a note', async () => {
    const { mailbox, messageId } = await mirrored([{ filename: 'INV.pdf', content: minimalPdf([invoicePdfLines]), contentType: 'application/pdf' }], 'processing_only');
    await db().mailbox.update({ where: { id: mailbox.id }, data: { status: 'disconnected' } });
    expect((await attachmentTextsOf(actorOf(member), messageId, bounds))!.read).toEqual([
      { filename: 'INV.pdf', contentType: 'application/pdf', text: null, truncated: false, note: 'could not read: its content is not available (the mirror does not keep it and the mail server did not give it)' },
    ]);
  });

  it('another member’s message: null', async () => {
    const { messageId } = await mirrored([{ filename: 'INV.pdf', content: minimalPdf([invoicePdfLines]), contentType: 'application/pdf' }]);
    expect(await attachmentTextsOf(actorOf(other), messageId, bounds)).toBeNull();
  });
});
