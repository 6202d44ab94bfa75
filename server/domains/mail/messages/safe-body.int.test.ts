/**
 * `bodyHtmlSafe` as the reading pane gets it: the stored HTML sanitised on every read (scripts and
 * handlers gone, remote images held back unless asked for), `cid:` images pointed at their downloads.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../core/db';
import { createMember, type TestMember } from '../../../testing/factories';
import { createMailbox, createMessage } from '../../../testing/mail-factories';
import { call } from '../../../testing/rest-client';
import { useTestDatabase } from '../../../testing/test-database';

await useTestDatabase();

type Full = { bodyHtmlSafe: string | null; hasRemoteImages: boolean };

let member: TestMember;
let messageId: string;

beforeAll(async () => {
  member = await createMember();
  const mailbox = await createMailbox(member);
  const message = await createMessage(mailbox, {
    subject: 'Hostile',
    bodyHtml:
      '<p onclick="alert(1)">Hello</p><script>alert(2)</script><img src="https://tracker.example/p.png"><img alt="logo" src="cid:logo@x">',
  });
  messageId = message.id;
  await db().mailAttachment.create({
    data: { messageId, position: 2, filename: 'logo.png', mime: 'image/png', size: 4, disposition: 'inline', contentId: '<logo@x>' },
  });
});

describe('GET /api/v1/messages/{id} bodyHtmlSafe', () => {
  it('is sanitised, holds remote images back and points cid: images at their download path', async () => {
    const response = await call<Full>('GET', `/api/v1/messages/${messageId}`, { cookie: member.cookie });
    expect(response.status).toBe(200);
    const html = response.body.bodyHtmlSafe ?? '';
    expect(html).toContain('Hello');
    expect(html).not.toMatch(/<script|onclick|alert\(/i);
    expect(html).not.toMatch(/\ssrc="https:\/\/tracker/);
    expect(html).toContain(`src="/api/v1/messages/${messageId}/attachments/2"`);
    expect(response.body.hasRemoteImages).toBe(true);
  });

  it('keeps remote images when the reader allows them', async () => {
    const response = await call<Full>('GET', `/api/v1/messages/${messageId}?allowRemoteImages=true`, { cookie: member.cookie });
    expect(response.status).toBe(200);
    expect(response.body.bodyHtmlSafe).toContain('src="https://tracker.example/p.png"');
    expect(response.body.bodyHtmlSafe).not.toMatch(/<script|onclick/i);
  });
});
