/**
 * One-click unsubscribe (RFC 8058) end to end: a list mail goes through the real mirror writer (its
 * `List-Unsubscribe` and `List-Unsubscribe-Post` read at ingest), the message read offers it, and the
 * route POSTs `List-Unsubscribe=One-Click` to a real HTTPS server on loopback (its self-signed
 * certificate trusted for this process only), with no cookie, audited with the host only.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../core/db';
import { createMirrorSink } from '../../../mail/mirror/writer';
import { closeSanitizePool } from '../../../mail/sanitize/sanitize-pool';
import { createMember, type TestMember } from '../../../testing/factories';
import { createMailbox, createMessage } from '../../../testing/mail-factories';
import { createSelfSignedCert } from '../../../testing/mail-servers/self-signed-cert';
import { call } from '../../../testing/rest-client';
import { useTestDatabase } from '../../../testing/test-database';

await useTestDatabase();

interface Received {
  method: string;
  path: string;
  contentType: string | undefined;
  cookie: string | undefined;
  body: string;
}

let directory: string;
let server: Server;
let origin: string;
const received: Received[] = [];
let member: TestMember;
let mailbox: { id: string; address: string };
let counter = 0;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'unsubscribe-'));
  const cert = await createSelfSignedCert(directory);
  tls.setDefaultCACertificates([...tls.getCACertificates('default'), cert.certPem]);
  server = createServer({ cert: cert.certPem, key: cert.keyPem }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ method: request.method ?? '', path: request.url ?? '', contentType: request.headers['content-type'], cookie: request.headers.cookie, body: Buffer.concat(chunks).toString('utf8') });
      response.statusCode = request.url?.startsWith('/refuse') ? 500 : 200;
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
  member = await createMember();
  mailbox = await createMailbox(member);
});

afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await rm(directory, { recursive: true, force: true });
  await closeSanitizePool();
});

/** Mirrors one list mail with the given headers through the real writer and answers its id. */
async function mirrorListMail(headers: string): Promise<string> {
  counter += 1;
  const source = Buffer.from(
    `From: News <news@list.example>\r\nTo: ${mailbox.address}\r\nSubject: Weekly ${counter}\r\nMessage-ID: <weekly-${counter}@list.example>\r\n` +
      `Date: Wed, 02 Dec 2026 08:00:00 +0000\r\n${headers}Content-Type: text/plain; charset=utf-8\r\n\r\nThis week.\r\n`,
  );
  const providerKey = `INBOX\n1\n${counter}`;
  const sink = createMirrorSink({ id: mailbox.id, memberId: member.id, address: mailbox.address, syncMode: 'full' });
  await sink.commit({
    ingestedVia: 'delta',
    messages: [
      {
        providerKey,
        folderKey: 'INBOX',
        labels: [],
        uid: BigInt(counter),
        uidValidity: 1n,
        modseq: null,
        flags: { seen: false, flagged: false, draft: false, sent: false },
        internalDate: new Date(),
        size: source.length,
        source,
        sourceComplete: true,
      },
    ],
    flagUpdates: [],
    removedProviderKeys: [],
    cursors: [],
  });
  return (await db().mailMessage.findFirstOrThrow({ where: { mailboxId: mailbox.id, providerKey } })).id;
}

describe('POST /api/v1/messages/{id}/unsubscribe (RFC 8058 one-click)', () => {
  it('posts List-Unsubscribe=One-Click to the list\'s https URL, without cookies, and audits the host only', async () => {
    const id = await mirrorListMail(`List-Unsubscribe: <mailto:leave@list.example>, <${origin}/u/secret-token?list=7>\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n`);
    const read = await call('GET', `/api/v1/messages/${id}`, { cookie: member.cookie });
    expect(read.status).toBe(200);
    expect(read.body.listUnsubscribe).toEqual({ oneClick: true, mailto: { to: 'leave@list.example', subject: 'unsubscribe', body: '' } });
    // The token URL is not shown to the reader's client.
    expect(JSON.stringify(read.body)).not.toContain('secret-token');

    const before = received.length;
    const answer = await call('POST', `/api/v1/messages/${id}/unsubscribe`, { cookie: member.cookie, body: {} });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ unsubscribed: true, host: new URL(origin).host, status: 200 });
    expect(received.slice(before)).toEqual([
      { method: 'POST', path: '/u/secret-token?list=7', contentType: 'application/x-www-form-urlencoded', cookie: undefined, body: 'List-Unsubscribe=One-Click' },
    ]);
    const audit = await db().auditEntry.findFirstOrThrow({ where: { action: 'message.unsubscribed', targetId: id } });
    expect(audit.actorMemberId).toBe(member.id);
    expect(audit.details).toMatchObject({ host: new URL(origin).host, status: 200, method: 'one_click' });
    expect(JSON.stringify(audit.details)).not.toContain('secret-token');
  });

  it('a mailto-only header offers a prepared mail instead, and the route refuses with 409 webmail.unsubscribe_unavailable', async () => {
    const id = await mirrorListMail('List-Unsubscribe: <mailto:leave@list.example?subject=stop%20please>\r\n');
    const read = await call('GET', `/api/v1/messages/${id}`, { cookie: member.cookie });
    expect(read.body.listUnsubscribe).toEqual({ oneClick: false, mailto: { to: 'leave@list.example', subject: 'stop please', body: '' } });
    const before = received.length;
    const answer = await call('POST', `/api/v1/messages/${id}/unsubscribe`, { cookie: member.cookie, body: {} });
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('webmail.unsubscribe_unavailable');
    // An https URL without List-Unsubscribe-Post is a page to visit, never posted to.
    const noPost = await mirrorListMail(`List-Unsubscribe: <${origin}/u/page>\r\n`);
    expect((await call('POST', `/api/v1/messages/${noPost}/unsubscribe`, { cookie: member.cookie, body: {} })).body.error.code).toBe('webmail.unsubscribe_unavailable');
    expect(received.length).toBe(before);
  });

  it('a list that refuses is 502 webmail.unsubscribe_failed, naming the host, not the URL; another member\'s message is 404', async () => {
    const id = await mirrorListMail(`List-Unsubscribe: <${origin}/refuse/token-2>\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n`);
    const answer = await call('POST', `/api/v1/messages/${id}/unsubscribe`, { cookie: member.cookie, body: {} });
    expect(answer.status).toBe(502);
    expect(answer.body.error.code).toBe('webmail.unsubscribe_failed');
    expect(answer.body.error.details).toMatchObject({ host: new URL(origin).host, reason: 'refused', status: 500 });
    expect(JSON.stringify(answer.body)).not.toContain('token-2');

    const stranger = await createMember();
    expect((await call('POST', `/api/v1/messages/${id}/unsubscribe`, { cookie: stranger.cookie, body: {} })).status).toBe(404);
    const plain = await createMessage(mailbox, { subject: 'Not a list' });
    expect((await call('POST', `/api/v1/messages/${plain.id}/unsubscribe`, { cookie: member.cookie, body: {} })).status).toBe(409);
  });
});
