/**
 * The whole message in a mail run's trigger data (issue 24 §2), on mail mirrored for real: MIME
 * sources built by nodemailer go through the mirror writer as new mail (ingest stores the bodies and
 * attachment rows as it does for a server's mail), then dispatch starts a workflow; a test run of the
 * same workflow pinned on the same message (POST …/test-runs with `messageId`) receives the same data.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createMember, type TestMember } from '../../testing/factories';
import { createMailbox, mirrorRawMessage } from '../../testing/mail-factories';
import { buildRawMessage, type RawMessageFields } from '../../testing/mail-servers/deliver';
import { invoicePdfLines, minimalPdf } from '../../testing/pdf-fixtures';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import type { GraphInput } from '../contract/graph';
import { stepDataMaxBytes } from '../run/step-data';
import { dispatchNewMail } from './dispatch-mail';

await useTestDatabase();

const graph: GraphInput = {
  nodes: [{ id: 'mail', type: 'trigger.mail', version: 1, name: 'Mail', params: { senderCard: false }, position: { x: 0, y: 0 } }],
  connections: [],
};

let member: TestMember;
let workflowId: string;

beforeAll(async () => {
  member = await createMember();
  workflowId = (await createWorkflow(member, { graph })).workflow.id;
});

/** A message delivered to a new mailbox of the member as new mail, dispatched; its trigger data and id. */
async function deliver(fields: Omit<RawMessageFields, 'from' | 'to'>, syncMode: 'full' | 'processing_only' = 'full') {
  const mailbox = await createMailbox(member);
  if (syncMode !== 'full') await db().mailbox.update({ where: { id: mailbox.id }, data: { syncMode } });
  const source = await buildRawMessage({ from: 'Billing <billing@supplier.test>', to: mailbox.address, ...fields });
  await mirrorRawMessage(mailbox, source, { syncMode });
  expect(await dispatchNewMail(mailbox.id)).toBe(1);
  const row = await db().mailMessage.findFirstOrThrow({ where: { mailboxId: mailbox.id }, select: { id: true } });
  const run = await db().execution.findFirstOrThrow({ where: { messageId: row.id, workflowId }, select: { triggerData: true } });
  return { messageId: row.id, data: run.triggerData as Record<string, unknown> };
}

/** The trigger data a test run pinned on the message receives. */
async function testRunData(messageId: string) {
  const response = await call('POST', `/api/v1/workflows/${workflowId}/test-runs`, { cookie: member.cookie, body: { messageId } });
  expect(response.status, JSON.stringify(response.body)).toBe(202);
  const execution = await db().execution.findUniqueOrThrow({ where: { id: response.body.executionId }, select: { triggerData: true } });
  return execution.triggerData as Record<string, unknown>;
}

describe('the mail trigger data carries the whole message', () => {
  it('a plain-text message: its text, no attachment; a test run on it gets the same shape', async () => {
    const { messageId, data } = await deliver({ subject: 'Hello', text: 'Dear team,\n\nthe meeting moves to 3 pm.\n\nAnna' });
    expect(data).toMatchObject({ text: 'Dear team,\n\nthe meeting moves to 3 pm.\n\nAnna\n', textTruncated: false, attachments: [], attachmentsTruncated: false, hasAttachments: false });
    const tested = await testRunData(messageId);
    expect(Object.keys(tested).sort()).toEqual(Object.keys(data).sort());
    expect({ ...tested, contact: null }).toEqual({ ...data, contact: null });
  });

  it('an HTML-only message reduced to text (by ingest: mailparser converts a message whose root is HTML)', async () => {
    const { data } = await deliver({ subject: 'Newsletter', html: '<h1>News</h1><p>Our <b>spring</b> offer.</p><p><a href="https://shop.example/spring">See it</a></p>' });
    expect(data).toMatchObject({ text: 'NEWS\n\nOur spring offer.\n\nSee it [https://shop.example/spring]', textTruncated: false });
  });

  it('multipart: an HTML body with a PDF invoice attached (the mirror has only the HTML): reduced to text, with the attachment’s metadata; a test run gets the same', async () => {
    const pdf = minimalPdf([invoicePdfLines]);
    const { messageId, data } = await deliver({
      subject: 'Invoice INV-2024-0042',
      html: '<p>Hello,</p><p>please find our invoice attached.</p>',
      attachments: [{ filename: 'INV-2024-0042.pdf', content: pdf, contentType: 'application/pdf' }],
    });
    const row = await db().mailAttachment.findFirstOrThrow({ where: { messageId } });
    expect(await db().mailMessage.findUniqueOrThrow({ where: { id: messageId }, select: { bodyText: true } })).toEqual({ bodyText: null });
    expect(data).toMatchObject({
      text: 'Hello,\n\nplease find our invoice attached.',
      hasAttachments: true,
      attachments: [{ id: row.id, position: row.position, filename: 'INV-2024-0042.pdf', contentType: 'application/pdf', size: pdf.length, disposition: 'attachment' }],
      attachmentsTruncated: false,
    });
    expect(await testRunData(messageId)).toMatchObject({ text: data.text, attachments: data.attachments });
  });

  it('a body over 64 KB is cut at 64 KB of UTF-8 on a character boundary, and says so', async () => {
    const body = 'Ligne née à Zürich — €\n'.repeat(4_000);
    const { data } = await deliver({ subject: 'Long', text: body });
    const text = data.text as string;
    expect(data.textTruncated).toBe(true);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(64 * 1024);
    expect(Buffer.byteLength(text)).toBeGreaterThan(64 * 1024 - 4);
    expect(body.startsWith(text)).toBe(true);
    expect(text.isWellFormed()).toBe(true);
  });

  it('stays within the stored step data bound at its worst: 64 KB of characters JSON escapes, control characters dropped, 50 attachments', async () => {
    const attachments = Array.from({ length: 51 }, (_, index) => ({ filename: `${'"'.repeat(100)}-${index}.txt`, content: Buffer.from('x'), contentType: 'text/plain' }));
    const { data } = await deliver({ subject: 'Worst', text: '"\\\u0001'.repeat(30_000), attachments });
    expect(data.textTruncated).toBe(true);
    expect(data.text).not.toContain('\u0001');
    expect(Buffer.byteLength(JSON.stringify(data))).toBeLessThan(stepDataMaxBytes);
  });

  it('more than 50 attachments: the first 50, flagged', async () => {
    const attachments = Array.from({ length: 52 }, (_, index) => ({ filename: `note-${index}.txt`, content: Buffer.from(`note ${index}`), contentType: 'text/plain' }));
    const { data } = await deliver({ subject: 'Many', text: 'See attached.', attachments });
    expect((data.attachments as unknown[]).length).toBe(50);
    expect(data.attachmentsTruncated).toBe(true);
    expect((data.attachments as { filename: string }[])[49]!.filename).toBe('note-49.txt');
  });

  it('a body the mirror does not keep (processing-only mailbox): text null, attachments still listed', async () => {
    const { data } = await deliver(
      { subject: 'Lazy', text: 'Not kept', attachments: [{ filename: 'a.pdf', content: minimalPdf([['x']]), contentType: 'application/pdf' }] },
      'processing_only',
    );
    expect(data).toMatchObject({ text: null, textTruncated: false, attachments: [{ filename: 'a.pdf', contentType: 'application/pdf' }] });
  });
});
