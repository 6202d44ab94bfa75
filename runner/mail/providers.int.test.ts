/**
 * The runner's mailbox session with OAuth provider mailboxes: the adapters opened by `openAdapter`
 * (API roots from the configuration, tokens from the installed source), against the fake Gmail and
 * Graph APIs: sync, webmail operations, a rate limit that postpones without failing, a refused grant
 * that moves the mailbox to error.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../server/core/config';
import { db } from '../../server/core/db';
import { setOAuthTokenSource } from '../../server/mail/providers/token-source';
import { createMember } from '../../server/testing/factories';
import { startFakeGmail, type FakeGmailServer } from '../../server/testing/fakes/gmail-server';
import { startFakeGraph, type FakeGraphServer } from '../../server/testing/fakes/graph-server';
import { createMailbox } from '../../server/testing/mail-factories';
import { buildRawMessage } from '../../server/testing/mail-servers/deliver';
import { useTestDatabase } from '../../server/testing/test-database';
import { MailboxSession } from './session';

await useTestDatabase();

let gmail: FakeGmailServer;
let graph: FakeGraphServer;
const tokens = new Map<string, string>();
const refreshes: string[] = [];

beforeAll(async () => {
  gmail = await startFakeGmail();
  graph = await startFakeGraph();
  process.env.MAIL_PROVIDER_A_API_URL = gmail.baseUrl;
  process.env.MAIL_PROVIDER_B_API_URL = graph.baseUrl;
  resetConfigForTests();
  setOAuthTokenSource((credentialId, options) => {
    if (options?.forceRefresh) refreshes.push(credentialId);
    return Promise.resolve(tokens.get(credentialId) ?? 'no-token');
  });
});
afterAll(async () => {
  setOAuthTokenSource(null);
  await gmail?.close();
  await graph?.close();
});

async function oauthMailbox(provider: 'mail_provider_a' | 'mail_provider_b', token: string) {
  const member = await createMember();
  const mailbox = await createMailbox(member, { provider, folders: false });
  const credentialId = randomUUID();
  await db().credential.create({
    data: { id: credentialId, memberId: member.id, type: `${provider}_oauth`, name: mailbox.address, dataEnc: 'sealed-elsewhere', capabilities: ['mail'] },
  });
  tokens.set(credentialId, token);
  await db().mailbox.update({ where: { id: mailbox.id }, data: { credentialId } });
  return { member, mailbox, credentialId, session: new MailboxSession(mailbox.id) };
}

const raw = (subject: string) => buildRawMessage({ from: 'Carol <carol@example.test>', to: 'me@example.test', subject, text: `Body of ${subject}`, date: new Date(Date.now() - 3600_000) });
const signal = () => new AbortController().signal;

describe('mailbox session with OAuth provider mailboxes', () => {
  it('syncs a Gmail-compatible mailbox, applies a webmail archive at Gmail, and keeps the mailbox healthy', async () => {
    const id = gmail.addMessage(await raw('Hello from Gmail'), { labelIds: ['INBOX', 'UNREAD'], internalDate: new Date(Date.now() - 3600_000) });
    const { member, mailbox, session } = await oauthMailbox('mail_provider_a', 'gmail-token');
    expect(await session.run({ delta: true }, signal())).toMatchObject({ outcome: 'ok' });
    const message = await db().mailMessage.findFirstOrThrow({ where: { mailboxId: mailbox.id, providerKey: id } });
    expect(message).toMatchObject({ folderKey: 'INBOX', subject: 'Hello from Gmail', seen: false });
    const row = await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } });
    expect(row).toMatchObject({ status: 'active', failureCount: 0 });
    expect(row.initialSyncDoneAt).not.toBeNull();
    expect((await db().mailFolder.findMany({ where: { mailboxId: mailbox.id, role: { not: null } } })).map((folder) => folder.role).sort()).toEqual(
      ['archive', 'drafts', 'inbox', 'sent', 'spam', 'starred', 'trash'],
    );

    // The web side moved the mirror row and queued the operation; the runner applies it at Gmail.
    await db().mailMessage.update({ where: { id: message.id }, data: { folderKey: 'ARCHIVE' } });
    await db().mailOperation.create({ data: { memberId: member.id, mailboxId: mailbox.id, messageId: message.id, action: 'archive', params: { fromFolderKey: 'INBOX', toFolderKey: 'ARCHIVE' } } });
    expect(await session.run({ operations: true, delta: true }, signal())).toMatchObject({ outcome: 'ok' });
    expect([...gmail.messages.get(id)!.labelIds]).toEqual(['UNREAD']);
    expect(await db().mailOperation.findFirstOrThrow({ where: { messageId: message.id } })).toMatchObject({ status: 'done' });
    expect(await db().mailMessage.findUniqueOrThrow({ where: { id: message.id } })).toMatchObject({ providerKey: id, folderKey: 'ARCHIVE' });
    await session.close();
  });

  it('a provider rate limit postpones by its Retry-After and never moves the mailbox to error', async () => {
    const { mailbox, session } = await oauthMailbox('mail_provider_a', 'gmail-token');
    for (let attempt = 0; attempt < 4; attempt += 1) {
      gmail.failNext({ status: 429, retryAfter: '3600', path: /\/labels$/ });
      const result = await session.run({ delta: true }, signal());
      expect(result).toMatchObject({ outcome: 'failed', failure: { kind: 'rate_limit', code: 'provider.rate_limited', httpStatus: 429 }, retryInMs: 3600_000 });
    }
    expect(await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).toMatchObject({ status: 'active' });
    expect(await session.run({ delta: true }, signal())).toMatchObject({ outcome: 'ok' });
    await session.close();
  });

  it('a grant the provider refuses even after a refresh moves the mailbox to error with an auth lastError', async () => {
    const { mailbox, credentialId, session } = await oauthMailbox('mail_provider_b', 'revoked-token');
    const result = await session.run({ delta: true }, signal());
    expect(result).toMatchObject({ outcome: 'failed', failure: { kind: 'auth', code: 'provider.auth_failed', httpStatus: 401 } });
    expect(refreshes).toContain(credentialId);
    const row = await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } });
    expect(row.status).toBe('error');
    expect(row.lastError).toMatchObject({ kind: 'auth', code: 'provider.auth_failed', httpStatus: 401, operation: 'sync' });
    expect(JSON.stringify(row.lastError)).not.toContain('revoked-token');
    await session.close();
  });

  it('syncs a Graph-compatible mailbox and applies a webmail trash as a move', async () => {
    const id = graph.addMessage(await raw('Hello from Graph'), { receivedDateTime: new Date(Date.now() - 3600_000) });
    const { member, mailbox, session } = await oauthMailbox('mail_provider_b', 'graph-token');
    expect(await session.run({ delta: true }, signal())).toMatchObject({ outcome: 'ok' });
    const message = await db().mailMessage.findFirstOrThrow({ where: { mailboxId: mailbox.id, providerKey: id } });
    expect(message).toMatchObject({ folderKey: 'inbox', subject: 'Hello from Graph' });
    await db().mailMessage.update({ where: { id: message.id }, data: { folderKey: 'deleteditems' } });
    await db().mailOperation.create({ data: { memberId: member.id, mailboxId: mailbox.id, messageId: message.id, action: 'trash', params: { fromFolderKey: 'inbox', toFolderKey: 'deleteditems' } } });
    expect(await session.run({ operations: true, delta: true }, signal())).toMatchObject({ outcome: 'ok' });
    expect(graph.messages.get(id)?.folderId).toBe(graph.folderId('deleteditems'));
    expect(await db().mailMessage.findUniqueOrThrow({ where: { id: message.id } })).toMatchObject({ providerKey: id, folderKey: 'deleteditems' });
    expect(await db().mailMessage.count({ where: { mailboxId: mailbox.id } })).toBe(1);
    await session.close();
  });
});
