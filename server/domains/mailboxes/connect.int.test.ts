/**
 * POST /api/v1/mailboxes/imap against real servers: a private Dovecot (IMAP) and smtp-server peers,
 * with self-signed certificates on 127.0.0.1 (private hosts are allowed in tests).
 */
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../core/config';
import { db } from '../../core/db';
import { findFreePort } from '../../core/free-port';
import { log } from '../../core/log';
import { imapSettingsOf, openImapPassword } from '../../mail/imap/mailbox-settings';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { startDovecot, type DovecotServer } from '../../testing/mail-servers/dovecot';
import { startSmtpServer, type TestSmtpServer } from '../../testing/mail-servers/smtp';
import { clearJobs, queuedJobs } from '../../testing/mailbox-fixtures';
import { prototypeNames } from '../../testing/prototype-names';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';

await useTestDatabase();

const alice = { user: 'alice@example.test', password: 'Al1ce-imap-secret-4f2b' };
const bob = { user: 'bob@example.test', password: 'B0b-imap-secret-88e1' };
/** Another login of Alice's with its own password (changing a password on the live server races its file cache). */
const aliceAlt = { user: 'alice-alt', password: 'Al1ce-other-login-0c9d' };

let dovecot: DovecotServer;
let smtp: TestSmtpServer;
let plainSmtp: TestSmtpServer;
let closedPort: number;
let owner: TestMember;

beforeAll(async () => {
  [dovecot, smtp, plainSmtp] = await Promise.all([
    startDovecot({ users: [alice, bob, aliceAlt] }),
    startSmtpServer({ users: [alice, bob, aliceAlt], tls: 'implicit' }),
    startSmtpServer({ users: [alice], tls: 'none' }),
  ]);
  closedPort = await findFreePort();
  owner = await createMember({ name: 'Owner' });
}, 60_000);

afterAll(async () => {
  await Promise.all([dovecot?.stop(), smtp?.stop(), plainSmtp?.stop()]);
});

beforeEach(() => clearJobs());

/** A body that both test servers accept for `user`. */
function body(user: { user: string; password: string } = alice, overrides: Record<string, unknown> = {}) {
  return {
    address: user.user,
    imapHost: '127.0.0.1',
    imapPort: dovecot.tlsPort,
    imapSecure: true,
    smtpHost: '127.0.0.1',
    smtpPort: smtp.port,
    smtpSecure: true,
    password: user.password,
    allowInvalidCertificate: true,
    ...overrides,
  };
}

async function storedFor(memberId: string) {
  const mailboxes = await db().mailbox.findMany({ where: { memberId }, include: { credential: true } });
  const credentials = await db().credential.findMany({ where: { memberId } });
  return { mailboxes, credentials };
}

describe('POST /api/v1/mailboxes/imap', () => {
  it('probes both servers, stores the mailbox with its sealed password and queues the first sync (201)', async () => {
    const member = await createMember();
    const response = await call('POST', '/api/v1/mailboxes/imap', { cookie: member.cookie, body: body(alice, { address: 'Alice@Example.TEST' , username: alice.user }) });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ mailboxId: expect.any(String), address: 'alice@example.test', created: true });
    expect(JSON.stringify(response.body)).not.toContain(alice.password);

    const mailbox = await db().mailbox.findUniqueOrThrow({ where: { id: response.body.mailboxId }, include: { credential: true } });
    expect(mailbox).toMatchObject({ memberId: member.id, provider: 'imap', address: 'alice@example.test', status: 'active', syncMode: 'full', lastError: null });
    expect(imapSettingsOf(mailbox)).toEqual({
      imapHost: '127.0.0.1',
      imapPort: dovecot.tlsPort,
      imapSecure: true,
      smtpHost: '127.0.0.1',
      smtpPort: smtp.port,
      smtpSecure: true,
      username: alice.user,
      allowInvalidCertificate: true,
    });
    const credential = mailbox.credential!;
    expect(credential).toMatchObject({ memberId: member.id, type: 'imap', scope: 'member', name: 'alice@example.test', hint: null });
    expect(openImapPassword(credential)).toBe(alice.password);
    expect(JSON.stringify(mailbox)).not.toContain(alice.password);

    expect(await queuedJobs(mailbox.id)).toEqual([{ task: 'mail.sync', key: `mail-sync:${mailbox.id}`, payload: { mailboxId: mailbox.id, reason: 'connect' } }]);
    const audit = await db().auditEntry.findFirstOrThrow({ where: { action: 'mailbox.connected', targetId: mailbox.id } });
    expect(audit.actorMemberId).toBe(member.id);
    expect(audit.details).toMatchObject({ address: 'alice@example.test', provider: 'imap', created: true });
    expect(JSON.stringify(audit)).not.toContain(alice.password);

    const listed = await call('GET', '/api/v1/mailboxes', { cookie: member.cookie });
    expect(listed.body.mailboxes).toEqual([expect.objectContaining({ id: mailbox.id, provider: 'imap', address: 'alice@example.test', status: 'active' })]);
  });

  it('logs in with the address when no username is given', async () => {
    const member = await createMember();
    const withoutUsername = body(bob);
    expect(withoutUsername).not.toHaveProperty('username');
    const response = await call('POST', '/api/v1/mailboxes/imap', { cookie: member.cookie, body: withoutUsername });
    expect(response.status).toBe(201);
    const mailbox = await db().mailbox.findUniqueOrThrow({ where: { id: response.body.mailboxId } });
    expect(imapSettingsOf(mailbox).username).toBe(bob.user);
  });

  it('connecting a known address again replaces its password and settings (created: false, same mailbox)', async () => {
    const member = await createMember();
    const first = await call('POST', '/api/v1/mailboxes/imap', { cookie: member.cookie, body: body(alice) });
    expect(first.body.created).toBe(true);
    const before = await db().mailbox.findUniqueOrThrow({ where: { id: first.body.mailboxId }, include: { credential: true } });

    // Alice now logs in with another user name and password, on the plaintext IMAP port.
    const second = await call('POST', '/api/v1/mailboxes/imap', {
      cookie: member.cookie,
      body: body(alice, { username: aliceAlt.user, password: aliceAlt.password, imapPort: dovecot.plainPort, imapSecure: false }),
    });
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect(second.body).toEqual({ mailboxId: first.body.mailboxId, address: alice.user, created: false });
    const after = await db().mailbox.findUniqueOrThrow({ where: { id: first.body.mailboxId }, include: { credential: true } });
    expect(after.credentialId).toBe(before.credentialId);
    expect(openImapPassword(before.credential!)).toBe(alice.password);
    expect(openImapPassword(after.credential!)).toBe(aliceAlt.password);
    expect(imapSettingsOf(after)).toMatchObject({ username: aliceAlt.user, imapPort: dovecot.plainPort, imapSecure: false });
    expect(await db().mailbox.count({ where: { memberId: member.id } })).toBe(1);
    expect(await db().credential.count({ where: { memberId: member.id } })).toBe(1);
    const audits = await db().auditEntry.findMany({ where: { action: 'mailbox.connected', targetId: first.body.mailboxId }, orderBy: { at: 'asc' } });
    expect(audits.map((entry) => (entry.details as { created: boolean }).created)).toEqual([true, false]);
  });

  it('reconnects a disconnected or failing mailbox: active again, error forgotten, new credential', async () => {
    const member = await createMember();
    const first = await call('POST', '/api/v1/mailboxes/imap', { cookie: member.cookie, body: body(bob) });
    const id = first.body.mailboxId;
    const disconnected = await call('POST', `/api/v1/mailboxes/${id}/disconnect`, { cookie: member.cookie });
    expect(disconnected.body.credential).toBe('deleted');
    expect((await call('POST', `/api/v1/mailboxes/${id}/sync`, { cookie: member.cookie })).body.error.code).toBe('mailbox.not_active');

    const again = await call('POST', '/api/v1/mailboxes/imap', { cookie: member.cookie, body: body(bob) });
    expect(again.body).toEqual({ mailboxId: id, address: bob.user, created: false });
    const row = await db().mailbox.findUniqueOrThrow({ where: { id }, include: { credential: true } });
    expect(row).toMatchObject({ status: 'active', disconnectedAt: null, lastError: null });
    expect(openImapPassword(row.credential!)).toBe(bob.password);
    expect((await call('POST', `/api/v1/mailboxes/${id}/sync`, { cookie: member.cookie })).status).toBe(202);

    await db().mailbox.update({ where: { id }, data: { status: 'error', failureCount: 4, lastError: { kind: 'auth', code: 'imap.auth_failed' } } });
    await call('POST', '/api/v1/mailboxes/imap', { cookie: member.cookie, body: body(bob) });
    expect(await db().mailbox.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'active', failureCount: 0, lastError: null });
  });

  it('resumes a backfill that a disconnect interrupted', async () => {
    const member = await createMember();
    const { mailboxId } = (await call('POST', '/api/v1/mailboxes/imap', { cookie: member.cookie, body: body(alice) })).body;
    await call('POST', `/api/v1/mailboxes/${mailboxId}/backfill`, { cookie: member.cookie, body: {} });
    await call('POST', `/api/v1/mailboxes/${mailboxId}/disconnect`, { cookie: member.cookie });
    expect((await queuedJobs(mailboxId)).map((job) => job.task)).toEqual(['mail.release']);
    await call('POST', '/api/v1/mailboxes/imap', { cookie: member.cookie, body: body(alice) });
    expect((await queuedJobs(mailboxId)).map((job) => job.task).sort()).toEqual(['mail.backfill', 'mail.release', 'mail.sync']);
  });

  it('two concurrent first connects of one address make one mailbox', async () => {
    const member = await createMember();
    const answers = await Promise.all([0, 1].map(() => call('POST', '/api/v1/mailboxes/imap', { cookie: member.cookie, body: body(bob) })));
    expect(answers.map((answer) => answer.status)).toEqual([201, 201]);
    expect(answers.map((answer) => answer.body.created).sort()).toEqual([false, true]);
    expect(answers[0]!.body.mailboxId).toBe(answers[1]!.body.mailboxId);
    expect(await db().mailbox.count({ where: { memberId: member.id } })).toBe(1);
    expect(await db().credential.count({ where: { memberId: member.id } })).toBe(1);
  });

  it('gives each member their own mailbox for the same address', async () => {
    const first = await createMember();
    const second = await createMember();
    const a = await call('POST', '/api/v1/mailboxes/imap', { cookie: first.cookie, body: body(alice) });
    const b = await call('POST', '/api/v1/mailboxes/imap', { cookie: second.cookie, body: body(alice) });
    expect(a.body.created).toBe(true);
    expect(b.body.created).toBe(true);
    expect(a.body.mailboxId).not.toBe(b.body.mailboxId);
  });

  it('replays an Idempotency-Key: one mailbox, one audit entry, the same answer', async () => {
    const member = await createMember();
    const headers = { 'idempotency-key': 'connect-alice-1' };
    const first = await call('POST', '/api/v1/mailboxes/imap', { cookie: member.cookie, headers, body: body(alice) });
    const replay = await call('POST', '/api/v1/mailboxes/imap', { cookie: member.cookie, headers, body: body(alice) });
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(await db().auditEntry.count({ where: { action: 'mailbox.connected', targetId: first.body.mailboxId } })).toBe(1);
    const reused = await call('POST', '/api/v1/mailboxes/imap', { cookie: member.cookie, headers, body: body(bob) });
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe('idempotency.key_reused');
  });

  it('answers to a key with mailboxes:write and refuses one with mailboxes:read only', async () => {
    const member = await createMember();
    const { secret: reader } = await createApiKeyFor(member, ['mailboxes:read']);
    const refused = await call('POST', '/api/v1/mailboxes/imap', { key: reader, body: body(alice) });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'api_key.scope_missing', details: { required: 'mailboxes:write' } });
    expect(await db().mailbox.count({ where: { memberId: member.id } })).toBe(0);
    const { secret: writer } = await createApiKeyFor(member, ['mailboxes:write']);
    expect((await call('POST', '/api/v1/mailboxes/imap', { key: writer, body: body(alice) })).status).toBe(201);
  });

  it.each([
    ['no address', { address: undefined }],
    ['an address that is not an email', { address: 'alice' }],
    ['no imapHost', { imapHost: undefined }],
    ['an empty smtpHost', { smtpHost: '  ' }],
    ['a 256-character host', { imapHost: 'h'.repeat(256) }],
    ['port 0', { imapPort: 0 }],
    ['port 65536', { smtpPort: 65_536 }],
    ['no password', { password: undefined }],
    ['an empty password', { password: '' }],
    ['a 1025-character password', { password: 'p'.repeat(1025) }],
    ['a 256-character username', { username: 'u'.repeat(256) }],
    ['imapSecure as an object', { imapSecure: {} }],
    ['allowInvalidCertificate as the text "false"', { allowInvalidCertificate: 'false' }],
    ['a port as text', { imapPort: '993' }],
    ['a port as a boolean', { smtpPort: true }],
  ])('answers 400 request.bad_request for %s, storing nothing', async (_name, overrides) => {
    const member = await createMember();
    const response = await call('POST', '/api/v1/mailboxes/imap', { cookie: member.cookie, body: body(alice, overrides) });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
    expect(JSON.stringify(response.body)).not.toContain(alice.password);
    expect(await db().mailbox.count({ where: { memberId: member.id } })).toBe(0);
  });

  it.each(prototypeNames)('ignores a body key named %s', async (name) => {
    const raw = JSON.stringify(body(alice)).replace(/^\{/, `{${JSON.stringify(name)}: {"polluted": true}, `);
    const response = await call('POST', '/api/v1/mailboxes/imap', { cookie: owner.cookie, rawBody: raw, headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(201);
    expect(response.body.address).toBe(alice.user);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('refusals name the server that refused, and store nothing', () => {
  async function refusal(overrides: Record<string, unknown>, user = alice) {
    const member = await createMember();
    const response = await call('POST', '/api/v1/mailboxes/imap', { cookie: member.cookie, body: body(user, overrides) });
    const text = JSON.stringify(response.body);
    expect(text).not.toContain(user.password);
    expect(text).not.toContain('"password"');
    const stored = await storedFor(member.id);
    expect(stored.mailboxes).toEqual([]);
    expect(stored.credentials).toEqual([]);
    return response;
  }

  it('wrong IMAP password → 422 imap.auth_failed', async () => {
    const response = await refusal({ password: 'Wrong-imap-pass-1d7e' });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: 'imap.auth_failed', details: { server: 'imap', reason: expect.any(String), detail: expect.any(String) } });
    expect(JSON.stringify(response.body)).not.toContain('Wrong-imap-pass-1d7e');
  });

  it('wrong SMTP password (IMAP accepted) → 422 smtp.auth_failed', async () => {
    const smtpOnly = 'Sm7p-only-user-pass-55aa';
    const carol = { user: 'carol@example.test', password: smtpOnly };
    await dovecot.addUser(carol);
    smtp.addUser({ user: carol.user, password: 'another-smtp-password-9' });
    const response = await refusal({}, carol);
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: 'smtp.auth_failed', details: { server: 'smtp' } });
  });

  it('unknown IMAP host → imap.host_not_found; unknown SMTP host → smtp.host_not_found', async () => {
    expect((await refusal({ imapHost: 'no-such-host.invalid' })).body.error).toMatchObject({ code: 'imap.host_not_found', details: { server: 'imap' } });
    expect((await refusal({ smtpHost: 'no-such-host.invalid' })).body.error).toMatchObject({ code: 'smtp.host_not_found', details: { server: 'smtp' } });
  });

  it('nothing listening → imap.unreachable / smtp.unreachable', async () => {
    expect((await refusal({ imapPort: closedPort })).body.error).toMatchObject({ code: 'imap.unreachable', details: { server: 'imap' } });
    expect((await refusal({ smtpPort: closedPort })).body.error).toMatchObject({ code: 'smtp.unreachable', details: { server: 'smtp' } });
  });

  it('TLS that cannot be established → imap.tls_failed / smtp.tls_failed', async () => {
    // A self-signed certificate without allowInvalidCertificate.
    expect((await refusal({ allowInvalidCertificate: false })).body.error).toMatchObject({ code: 'imap.tls_failed', details: { server: 'imap' } });
    // TLS spoken to a plaintext port.
    expect((await refusal({ imapPort: dovecot.plainPort, imapSecure: true })).body.error.code).toBe('imap.tls_failed');
    expect((await refusal({ smtpPort: plainSmtp.port, smtpSecure: true })).body.error).toMatchObject({ code: 'smtp.tls_failed', details: { server: 'smtp' } });
  });

  it('a wrong password never appears in a log line (every level captured)', async () => {
    const wrong = 'Never-log-this-pw-3b8f';
    const stream = (log as unknown as Record<symbol, { write: (chunk: string) => boolean }>)[pino.symbols.streamSym]!;
    const captured: string[] = [];
    const originalWrite = stream.write;
    const originalLevel = log.level;
    const stdoutWrite = process.stdout.write;
    const stderrWrite = process.stderr.write;
    const capture = (chunk: unknown) => {
      captured.push(String(chunk));
      return true;
    };
    stream.write = capture;
    process.stdout.write = capture as typeof process.stdout.write;
    process.stderr.write = capture as typeof process.stderr.write;
    log.level = 'trace';
    try {
      const member = await createMember();
      const imap = await call('POST', '/api/v1/mailboxes/imap', { cookie: member.cookie, body: body(alice, { password: wrong }) });
      expect(imap.body.error.code).toBe('imap.auth_failed');
      const smtpRefused = await call('POST', '/api/v1/mailboxes/imap', { cookie: member.cookie, body: body(alice, { smtpPort: closedPort }) });
      expect(smtpRefused.body.error.code).toBe('smtp.unreachable');
    } finally {
      log.level = originalLevel;
      stream.write = originalWrite;
      process.stdout.write = stdoutWrite;
      process.stderr.write = stderrWrite;
    }
    const output = captured.join('');
    // The capture works: the refusals were logged…
    expect(output).toContain('imap.auth_failed');
    expect(output).toContain('smtp.unreachable');
    // …without either password.
    expect(output).not.toContain(wrong);
    expect(output).not.toContain(alice.password);
  });
});

describe('without an instance encryption key', () => {
  it('answers 409 credentials.encryption_disabled before probing anything', async () => {
    const member = await createMember();
    const saved = process.env.ENCRYPTION_KEY;
    delete process.env.ENCRYPTION_KEY;
    resetConfigForTests();
    try {
      // An unresolvable host: a probe would have answered imap.host_not_found.
      const response = await call('POST', '/api/v1/mailboxes/imap', { cookie: member.cookie, body: body(alice, { imapHost: 'no-such-host.invalid' }) });
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe('credentials.encryption_disabled');
      expect(await db().mailbox.count({ where: { memberId: member.id } })).toBe(0);
    } finally {
      process.env.ENCRYPTION_KEY = saved;
      resetConfigForTests();
    }
    expect((await call('POST', '/api/v1/mailboxes/imap', { cookie: member.cookie, body: body(alice) })).status).toBe(201);
  });
});
