/**
 * The send pipeline through the OAuth providers' APIs, against the fake Gmail and Graph servers: the
 * message handed over as MIME (Bcc read by the provider, absent from what it delivers), the provider's
 * id kept, the copy filed in SENT / Sent Items, and the provider's answers mapped to the item's state
 * (429 with Retry-After postpones without counting an attempt, 5xx retries, 400 fails).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../../core/db';
import { createOutbound, type OutboundInput } from '../create';
import { createGmailAdapter } from '../../../mail/providers/gmail/adapter';
import { createGraphAdapter } from '../../../mail/providers/graph/adapter';
import { createMember, type TestMember } from '../../../testing/factories';
import { adapterHarness } from '../../../testing/fakes/adapter-harness';
import { startFakeGmail, type FakeGmailServer } from '../../../testing/fakes/gmail-server';
import { startFakeGraph, type FakeGraphServer } from '../../../testing/fakes/graph-server';
import { createMailbox } from '../../../testing/mail-factories';
import { linkOAuthGrant } from '../../../testing/mailbox-fixtures';
import { useTestDatabase } from '../../../testing/test-database';
import { runSend, type SendRunOptions } from './pipeline';

await useTestDatabase();

let gmail: FakeGmailServer;
let graph: FakeGraphServer;
let member: TestMember;
let options: SendRunOptions;

beforeAll(async () => {
  gmail = await startFakeGmail();
  graph = await startFakeGraph();
  options = {
    runnerId: 'provider-runner',
    allowPrivate: true,
    oauthTokens: async () => 'gmail-token',
    providerBaseUrl: { a: gmail.baseUrl, b: graph.baseUrl },
  };
});

afterAll(async () => {
  await gmail?.close();
  await graph?.close();
});

beforeEach(async () => {
  member = await createMember();
  graph.validTokens.add('gmail-token');
});

async function itemIn(provider: 'mail_provider_a' | 'mail_provider_b', overrides: Partial<OutboundInput> = {}) {
  const mailbox = await createMailbox(member, { provider });
  await linkOAuthGrant(mailbox, ['mail']);
  const { item } = await db().$transaction((tx) =>
    createOutbound({ memberId: member.id, mailboxId: mailbox.id, mode: 'send', origin: 'workflow', review: false, to: ['ann@example.test'], bcc: ['hidden@example.test'], subject: 'Report', bodyText: 'Attached', ...overrides }, tx),
  );
  return item;
}

const item = (id: string) => db().outboundMessage.findUniqueOrThrow({ where: { id } });
const journal = (outboundId: string) => db().sendingJournalEntry.findMany({ where: { outboundId }, orderBy: { createdAt: 'asc' } });

describe('mail_provider_a (Gmail API)', () => {
  it('sends the MIME, keeps the provider id, files it under SENT, and Bcc reaches only the envelope', async () => {
    const created = await itemIn('mail_provider_a');
    expect(await runSend(created.id, options)).toBe('done');
    const sent = gmail.sent.find((message) => message.raw.toString('utf8').includes(created.messageIdHeader));
    expect(sent).toBeDefined();
    expect(sent!.recipients.sort()).toEqual(['ann@example.test', 'hidden@example.test']);
    expect(sent!.delivered.toString('utf8')).not.toMatch(/^bcc:/im);
    // Sent mail carries the member's display name in From.
    expect(sent!.delivered.toString('utf8')).toMatch(new RegExp(`^From: ${member.name} <`, 'm'));
    expect(gmail.messages.get(sent!.id)?.labelIds.has('SENT')).toBe(true);
    expect(await item(created.id)).toMatchObject({ sendStatus: 'done', providerMessageId: sent!.id, sendAttempts: 1 });
    expect(await journal(created.id)).toEqual([expect.objectContaining({ result: 'done', providerMessageId: sent!.id })]);
  });

  it('postpones a rate limit for the time asked without counting the attempt', async () => {
    const created = await itemIn('mail_provider_a');
    gmail.failNext({ status: 429, retryAfter: '120', path: /messages\/send$/ });
    const before = Date.now();
    expect(await runSend(created.id, options)).toBe('retry');
    const row = await item(created.id);
    expect(row).toMatchObject({ sendStatus: 'pending', sendAttempts: 0, sendErrorKind: 'rate_limited' });
    expect(row.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(before + 120_000);
    expect(await journal(created.id)).toEqual([expect.objectContaining({ result: 'failed', errorKind: 'rate_limited', attempt: 1 })]);
  });

  it('retries a provider error and fails a refused request', async () => {
    const busy = await itemIn('mail_provider_a');
    gmail.failNext({ status: 500, path: /messages\/send$/ });
    expect(await runSend(busy.id, options)).toBe('retry');
    expect(await item(busy.id)).toMatchObject({ sendStatus: 'pending', sendAttempts: 1, sendErrorKind: 'unreachable' });

    const refused = await itemIn('mail_provider_a');
    gmail.failNext({ status: 400, reason: 'invalidArgument', path: /messages\/send$/ });
    expect(await runSend(refused.id, options)).toBe('failed');
    expect(await item(refused.id)).toMatchObject({ sendStatus: 'failed', sendErrorKind: 'rejected' });
  });

  it('retries while the grant is refused', async () => {
    const created = await itemIn('mail_provider_a');
    expect(await runSend(created.id, { ...options, oauthTokens: async () => 'revoked-token' })).toBe('retry');
    expect(await item(created.id)).toMatchObject({ sendStatus: 'pending', sendErrorKind: 'auth' });
  });
});

describe('mail_provider_b (Graph)', () => {
  it('sends the MIME as base64 and files it in Sent Items; the Message-ID stands for the id', async () => {
    const created = await itemIn('mail_provider_b');
    expect(await runSend(created.id, options)).toBe('done');
    const sent = graph.sent.find((message) => message.raw.toString('utf8').includes(created.messageIdHeader));
    expect(sent).toBeDefined();
    expect(sent!.recipients.sort()).toEqual(['ann@example.test', 'hidden@example.test']);
    expect(sent!.delivered.toString('utf8')).not.toMatch(/^bcc:/im);
    // Sent mail carries the member's display name in From.
    expect(sent!.delivered.toString('utf8')).toMatch(new RegExp(`^From: ${member.name} <`, 'm'));
    expect(graph.messages.get(sent!.id)?.folderId).toBe(graph.folderId('sentitems'));
    expect(await item(created.id)).toMatchObject({ sendStatus: 'done', providerMessageId: created.messageIdHeader });
  });

  it('postpones a 429 and fails a 400', async () => {
    const limited = await itemIn('mail_provider_b');
    graph.failNext({ status: 429, retryAfter: '30', path: /sendMail$/ });
    expect(await runSend(limited.id, options)).toBe('retry');
    expect(await item(limited.id)).toMatchObject({ sendStatus: 'pending', sendAttempts: 0, sendErrorKind: 'rate_limited' });

    const refused = await itemIn('mail_provider_b', { to: [], cc: [], bcc: [] });
    expect(await runSend(refused.id, options)).toBe('failed');
    expect(await item(refused.id)).toMatchObject({ sendStatus: 'failed', sendErrorKind: 'rejected' });
  });
});

describe('the sent copy in the mirror', () => {
  it('is mirrored by the sync from SENT / Sent Items with the item\'s Message-ID', async () => {
    const harnesses = [
      await adapterHarness('mail_provider_a', (o) => createGmailAdapter({ ...o, baseUrl: gmail.baseUrl, allowPrivate: true }), { tokens: ['gmail-token'], initialSince: new Date(Date.now() - 86_400_000) }),
      await adapterHarness('mail_provider_b', (o) => createGraphAdapter({ ...o, baseUrl: graph.baseUrl, allowPrivate: true }), { tokens: ['gmail-token'], initialSince: new Date(Date.now() - 86_400_000) }),
    ];
    for (const [index, h] of harnesses.entries()) {
      await linkOAuthGrant(h.mailbox, ['mail']);
      const { item: created } = await db().$transaction((tx) =>
        createOutbound({ memberId: h.mailbox.memberId, mailboxId: h.mailbox.id, mode: 'send', origin: 'webmail', review: false, to: ['ann@example.test'], subject: `Mirrored ${index}`, bodyText: 'Hi' }, tx),
      );
      expect(await runSend(created.id, options)).toBe('done');
      await h.folders();
      await h.adapter.syncDelta(await h.context());
      const mirrored = await db().mailMessage.findMany({ where: { mailboxId: h.mailbox.id, messageIdHeader: created.messageIdHeader } });
      expect(mirrored).toHaveLength(1);
      expect(mirrored[0].folderKey).toBe(index === 0 ? 'SENT' : (await db().mailFolder.findFirstOrThrow({ where: { mailboxId: h.mailbox.id, role: 'sent' } })).key);
    }
  });
});
