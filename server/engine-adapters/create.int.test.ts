/** The real capabilities against the database: mail operations, table writes, notices, signals, the HTTP node's connections; test runs write nothing. */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../core/db';
import { jobKeys } from '../core/jobs/catalogue';
import { createMember, type TestMember } from '../testing/factories';
import { createMailbox, createMessage } from '../testing/mail-factories';
import { call } from '../testing/rest-client';
import { useTestDatabase } from '../testing/test-database';
import { clientTokenOf, createCapabilities } from './create';
import { databaseCredentialSource } from './http-credential';

await useTestDatabase();

let owner: TestMember;
let stranger: TestMember;
let admin: TestMember;
beforeAll(async () => {
  owner = await createMember();
  stranger = await createMember();
  admin = await createMember({ role: 'admin' });
});

function capabilitiesFor(member: TestMember, simulated = false) {
  const executionId = randomUUID();
  return { executionId, capabilities: createCapabilities({ actor: { kind: 'execution', executionId, member: { id: member.id, email: member.email, name: member.name, role: member.role, createdAt: new Date() } }, simulated, effectKeyPrefix: `${executionId}:node-1` }) };
}

const jobsOf = async (mailboxId: string) =>
  (await db().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = ${jobKeys.operations(mailboxId)}`)[0].n;

describe('mail capability', () => {
  it('records one operation, applies it to the mirror and enqueues mail.apply-operations; a repeat is a duplicate', async () => {
    const mailbox = await createMailbox(owner);
    const message = await createMessage(mailbox);
    const { capabilities, executionId } = capabilitiesFor(owner);
    const first = await capabilities.mail.operate({ effectKey: 'op', messageId: message.id, action: 'markRead' });
    expect(first.duplicate).toBe(false);
    const again = await capabilities.mail.operate({ effectKey: 'op', messageId: message.id, action: 'markRead' });
    expect(again).toEqual({ operationId: first.operationId, duplicate: true });
    const operations = await db().mailOperation.findMany({ where: { messageId: message.id } });
    expect(operations).toHaveLength(1);
    expect(operations[0]).toMatchObject({ action: 'markRead', clientToken: clientTokenOf(`${executionId}:node-1:op`) });
    expect((await db().mailMessage.findUniqueOrThrow({ where: { id: message.id } })).seen).toBe(true);
    expect(await jobsOf(mailbox.id)).toBe(1);
  });

  it.each([
    ['move', { action: 'move' as const, folder: 'Archive' }, { folderKey: 'Archive' }],
    ['flag', { action: 'flag' as const }, { flagged: true }],
    ['label', { action: 'label' as const, labels: { add: ['Clients'], remove: [] } }, {}],
  ])('%s changes the mirror', async (_name, input, expected) => {
    const mailbox = await createMailbox(owner);
    const message = await createMessage(mailbox);
    const { capabilities } = capabilitiesFor(owner);
    await capabilities.mail.operate({ effectKey: 'op', messageId: message.id, ...input });
    expect(await db().mailMessage.findUniqueOrThrow({ where: { id: message.id } })).toMatchObject(expected);
  });

  it('fails mail.message_not_found for another member’s message or an unknown id', async () => {
    const mailbox = await createMailbox(stranger);
    const message = await createMessage(mailbox);
    const { capabilities } = capabilitiesFor(owner);
    for (const messageId of [message.id, randomUUID(), 'not-a-uuid']) {
      await expect(capabilities.mail.operate({ effectKey: 'op', messageId, action: 'flag' })).rejects.toMatchObject({ code: 'mail.message_not_found' });
    }
    expect(await capabilities.mail.findMessage(message.id)).toBeNull();
    expect((await db().mailMessage.findUniqueOrThrow({ where: { id: message.id } })).flagged).toBe(false);
  });

  it('fails mail.mailbox_not_active on a disconnected mailbox, invalid_parameter on an unknown folder', async () => {
    const { capabilities } = capabilitiesFor(owner);
    const gone = await createMessage(await createMailbox(owner, { status: 'disconnected' }));
    await expect(capabilities.mail.operate({ effectKey: 'op', messageId: gone.id, action: 'flag' })).rejects.toMatchObject({ code: 'mail.mailbox_not_active' });
    const message = await createMessage(await createMailbox(owner));
    await expect(capabilities.mail.operate({ effectKey: 'op2', messageId: message.id, action: 'move', folder: 'Nowhere' })).rejects.toMatchObject({ code: 'invalid_parameter' });
  });

  it('does nothing in a test run', async () => {
    const mailbox = await createMailbox(owner);
    const message = await createMessage(mailbox);
    const { capabilities } = capabilitiesFor(owner, true);
    expect(await capabilities.mail.operate({ effectKey: 'op', messageId: message.id, action: 'trash' })).toEqual({ operationId: 'simulated', duplicate: false });
    expect(await db().mailOperation.count({ where: { messageId: message.id } })).toBe(0);
    expect(await jobsOf(mailbox.id)).toBe(0);
  });

  it('keeps client tokens within 128 characters of [A-Za-z0-9._:-]', () => {
    for (const key of ['a:b:op', `${'x'.repeat(200)}:op`, 'é ü/op']) expect(clientTokenOf(key)).toMatch(/^[A-Za-z0-9._:-]{8,128}$/);
  });
});

describe('tables capability', () => {
  it('writes once per effect key and looks up by key', async () => {
    const created = await call('POST', '/api/v1/tables', {
      cookie: admin.cookie,
      body: { name: `Leads ${randomUUID()}`, columns: [{ label: 'Email', type: 'email', isKey: true }, { label: 'Name' }] },
    });
    const tableId = created.body.table.id as string;
    const { capabilities } = capabilitiesFor(owner);
    const first = await capabilities.tables.write({ effectKey: 'insert', op: 'insert', tableId, cells: { email: 'ann@example.test', name: 'Ann' } });
    const again = await capabilities.tables.write({ effectKey: 'insert', op: 'insert', tableId, cells: { email: 'ann@example.test', name: 'Ann' } });
    expect(first.replayed).toBe(false);
    expect(again).toMatchObject({ replayed: true, row: { id: first.row.id } });
    expect(await db().tableRow.count({ where: { tableId } })).toBe(1);
    expect(await capabilities.tables.lookup({ tableId, key: 'ann@example.test' })).toMatchObject({ id: first.row.id });
    expect(await capabilities.tables.lookup({ tableId, key: 'bob@example.test' })).toBeNull();
    await expect(capabilities.tables.lookup({ tableId: randomUUID(), key: 'x' })).rejects.toMatchObject({ code: 'tables.not_found' });
    await expect(capabilities.tables.write({ effectKey: 'bad', op: 'insert', tableId, cells: { email: 'not an email' } })).rejects.toMatchObject({ code: 'tables.write_refused' });

    const simulated = capabilitiesFor(owner, true).capabilities;
    await simulated.tables.write({ effectKey: 'insert', op: 'insert', tableId, cells: { email: 'cy@example.test' } });
    expect(await db().tableRow.count({ where: { tableId } })).toBe(1);
  });
});

describe('notify capability', () => {
  it('adds a workflow.notice to the member’s feed', async () => {
    const { capabilities, executionId } = capabilitiesFor(owner);
    const { id } = await capabilities.notify.owner({ title: 'New lead', body: 'From ACME', severity: 'warning' });
    expect(await db().notification.findUniqueOrThrow({ where: { id } })).toMatchObject({
      memberId: owner.id,
      kind: 'workflow.notice',
      severity: 'warning',
      params: expect.objectContaining({ title: 'New lead', body: 'From ACME', executionId }),
    });
    const simulated = capabilitiesFor(owner, true);
    expect(await simulated.capabilities.notify.owner({ title: 'x', body: '', severity: 'info' })).toEqual({ id: 'simulated' });
  });
});

describe('signal capability', () => {
  it('marks a message once per name; another member’s message is not found', async () => {
    const message = await createMessage(await createMailbox(owner));
    const { capabilities } = capabilitiesFor(owner);
    expect(await capabilities.signal.mark({ effectKey: 'signal', messageId: message.id, name: 'vip' })).toEqual({ created: true });
    expect(await capabilitiesFor(owner).capabilities.signal.mark({ effectKey: 'signal', messageId: message.id, name: 'vip' })).toEqual({ created: false });
    expect(await db().messageSignal.findMany({ where: { messageId: message.id } })).toEqual([expect.objectContaining({ name: 'vip', threadId: message.threadId })]);
    await expect(capabilitiesFor(stranger).capabilities.signal.mark({ effectKey: 'signal', messageId: message.id, name: 'x' })).rejects.toMatchObject({
      code: 'mail.message_not_found',
    });
    await capabilitiesFor(owner, true).capabilities.signal.mark({ effectKey: 'signal', messageId: message.id, name: 'dry' });
    expect(await db().messageSignal.count({ where: { messageId: message.id } })).toBe(1);
  });
});

describe('mail.classify capability', () => {
  it('writes the classification on the message and its thread, keeping other keys; another member’s message is left alone', async () => {
    const message = await createMessage(await createMailbox(owner));
    await db().mailThread.update({ where: { id: message.threadId! }, data: { classification: { rules: 'kept' } } });
    const value = { label: 'invoice', confidence: 0.9 };
    expect(await capabilitiesFor(owner).capabilities.mail.classify({ messageId: message.id, key: 'ai', value })).toBe(true);
    expect((await db().mailMessage.findUniqueOrThrow({ where: { id: message.id } })).classification).toEqual({ ai: value });
    expect((await db().mailThread.findUniqueOrThrow({ where: { id: message.threadId! } })).classification).toEqual({ rules: 'kept', ai: value });

    expect(await capabilitiesFor(stranger).capabilities.mail.classify({ messageId: message.id, key: 'ai', value: { label: 'x' } })).toBe(false);
    expect((await db().mailThread.findUniqueOrThrow({ where: { id: message.threadId! } })).classification).toEqual({ rules: 'kept', ai: value });
    // A test run writes nothing.
    expect(await capabilitiesFor(owner, true).capabilities.mail.classify({ messageId: message.id, key: 'ai', value: { label: 'other' } })).toBe(true);
    expect((await db().mailMessage.findUniqueOrThrow({ where: { id: message.id } })).classification).toEqual({ ai: value });
  });
});

describe('http_generic connections for the HTTP capability', () => {
  it('finds the member’s own and the organisation’s; another member’s, another type or an unknown id is credential_missing', async () => {
    const created = await call('POST', '/api/v1/credentials', {
      cookie: owner.cookie,
      body: { type: 'http_generic', name: 'API', data: { kind: 'bearer', token: 'tok-123' }, allowedHosts: ['api.example.com'] },
    });
    expect(created.status).toBe(201);
    const credentialId = created.body.id as string;
    const own = await databaseCredentialSource(owner.id).load(credentialId);
    expect(own).toMatchObject({ scope: 'member', kind: 'bearer', sentAs: 'authorization', allowedHosts: ['api.example.com'] });
    expect(own.open()).toEqual({ kind: 'bearer', token: 'tok-123' });
    await expect(databaseCredentialSource(stranger.id).load(credentialId)).rejects.toMatchObject({ code: 'credential_missing' });
    await expect(databaseCredentialSource(owner.id).load(randomUUID())).rejects.toMatchObject({ code: 'credential_missing' });
    await expect(databaseCredentialSource(owner.id).load('not-a-uuid')).rejects.toMatchObject({ code: 'credential_missing' });
    const other = await call('POST', '/api/v1/credentials', { cookie: owner.cookie, body: { type: 'my_service', name: 'Other', data: { token: 'x' } } });
    await expect(databaseCredentialSource(owner.id).load(other.body.id)).rejects.toMatchObject({ code: 'credential_missing' });
    const shared = await call('POST', '/api/v1/credentials', {
      cookie: admin.cookie,
      body: { type: 'http_generic', name: 'Org', scope: 'org', data: { kind: 'query', paramName: 'key', value: 'org-1' }, allowedHosts: ['api.example.com'] },
    });
    expect(shared.status).toBe(201);
    expect(await databaseCredentialSource(stranger.id).load(shared.body.id)).toMatchObject({ scope: 'org', kind: 'query', sentAs: 'key' });
  });
});
