/**
 * The address book attacked as an outsider would: huge, malformed and prototype-named input, another
 * member's ids, keys with fewer scopes. Each answer is a 4xx in the envelope, and nothing is written.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { createMailbox } from '../../testing/mail-factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';

await useTestDatabase();

let admin: TestMember;
let member: TestMember;
let victim: TestMember;

beforeAll(async () => {
  admin = await createMember({ role: 'admin' });
  member = await createMember();
  victim = await createMember();
});

const rawPut = (who: TestMember, rawBody: string) => call('PUT', '/api/v1/contacts', { cookie: who.cookie, rawBody, headers: { 'content-type': 'application/json' } });

describe('hardening (outsider input): the address book answers 4xx, never 5xx, and writes nothing', () => {
  it('prototype names as values are ordinary strings: `__proto__` is no address, no domain, no mailbox, no signature', async () => {
    const bodies = [
      { kind: 'contact', value: '__proto__' },
      { kind: 'domain', value: '__proto__' },
      { kind: 'domain', value: 'constructor' },
      { kind: '__proto__', value: 'a@b.example' },
      { kind: 'contact', value: 'a@b.example', layer: '__proto__' },
      { kind: 'contact', value: 'a@b.example', formality: 'constructor' },
    ];
    for (const body of bodies) {
      const response = await call('PUT', '/api/v1/contacts', { cookie: member.cookie, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe('request.bad_request');
    }
    const mailbox = await call('PUT', '/api/v1/contacts', { cookie: member.cookie, body: { kind: 'contact', value: 'a@b.example', mailboxId: '__proto__' } });
    expect(mailbox.body.error.code).toBe('contacts.mailbox_not_found');
    const signature = await call('PUT', '/api/v1/contacts', { cookie: member.cookie, body: { kind: 'contact', value: 'a@b.example', signatureId: 'constructor' } });
    expect(signature.body.error.code).toBe('contacts.signature_not_found');
    const list = await call('GET', '/api/v1/contacts?__proto__=x&constructor=y&q=__proto__', { cookie: member.cookie });
    expect(list.status).toBe(200);
    expect(await db().contactEntry.count()).toBe(0);
  });

  it('prototype names as keys: `__proto__` and `constructor` are unknown fields (400), never merged into the card', async () => {
    for (const raw of [
      '{"kind":"contact","value":"p@proto.example","__proto__":{"layer":"shared","displayName":"Owned"}}',
      '{"kind":"contact","value":"p@proto.example","constructor":{"prototype":{"layer":"shared"}}}',
    ]) {
      const response = await rawPut(member, raw);
      expect(response.status, raw).toBe(400);
      expect(response.body.error.code).toBe('request.bad_request');
    }
    expect(await db().contactSharedCard.count()).toBe(0);
    expect(await db().contactEntry.count({ where: { value: 'p@proto.example' } })).toBe(0);
  });

  it('huge and malformed input: bounded fields, a body past 5 MB, JSON that is not JSON, arrays for strings', async () => {
    const cases: [string, number, string][] = [
      [JSON.stringify({ kind: 'contact', value: `${'a'.repeat(300)}@b.example` }), 400, 'request.bad_request'],
      [JSON.stringify({ kind: 'contact', value: 'a@b.example', personalNotes: 'x'.repeat(1_000_000) }), 400, 'request.bad_request'],
      [JSON.stringify({ kind: 'contact', value: 'a@b.example', personalNotes: 'x'.repeat(5_300_000) }), 413, 'request.payload_too_large'],
      ['{"kind":"contact","value":', 400, 'request.bad_request'],
      [JSON.stringify({ kind: 'contact', value: ['a@b.example'] }), 400, 'request.bad_request'],
      [JSON.stringify({ kind: 'contact', value: 'a@b.example', language: 'x'.repeat(36) }), 400, 'request.bad_request'],
      [JSON.stringify({ kind: 'contact', value: 'a\u0000@b.example' }), 400, 'request.bad_request'],
      [JSON.stringify([{ kind: 'contact', value: 'a@b.example' }]), 400, 'request.bad_request'],
    ];
    for (const [raw, status, code] of cases) {
      const response = await rawPut(member, raw);
      expect(response.status, raw.slice(0, 80)).toBe(status);
      expect(response.body.error.code).toBe(code);
    }
    const longQ = await call('GET', `/api/v1/contacts?q=${'x'.repeat(201)}`, { cookie: member.cookie });
    expect(longQ.status).toBe(400);
    const wildcards = await call('GET', `/api/v1/contacts?q=${encodeURIComponent('%_\\')}`, { cookie: member.cookie });
    expect(wildcards.status).toBe(200);
    const forged = Buffer.from(JSON.stringify({ t: '2026-01-01T00:00:00.000Z', i: "x' OR 1=1 --" })).toString('base64url');
    expect((await call('GET', `/api/v1/contacts?cursor=${forged}`, { cookie: member.cookie })).status).toBe(200);
    expect(await db().contactEntry.count()).toBe(0);
  });

  it('another member’s mailbox and signature ids reach nothing of theirs, through every route that takes them', async () => {
    const theirBox = await createMailbox(victim);
    const theirSignature = await db().contactSignature.create({ data: { memberId: victim.id, name: 'Victim', text: '-- victim' } });
    await db().contactMailboxDefaults.create({ data: { mailboxId: theirBox.id, signatureId: theirSignature.id, tone: 'formal' } });
    const probes = [
      ['GET', `/api/v1/contacts?mailboxId=${theirBox.id}`, undefined, 'contacts.mailbox_not_found'],
      ['GET', `/api/v1/contacts/resolve?address=a%40b.example&mailboxId=${theirBox.id}`, undefined, 'contacts.mailbox_not_found'],
      ['GET', `/api/v1/contacts/defaults?mailboxId=${theirBox.id}`, undefined, 'contacts.mailbox_not_found'],
      ['PUT', `/api/v1/contacts/defaults/mailboxes/${theirBox.id}`, { tone: 'casual' }, 'contacts.mailbox_not_found'],
      ['PUT', '/api/v1/contacts', { kind: 'contact', value: 'a@b.example', mailboxId: theirBox.id }, 'contacts.mailbox_not_found'],
      ['DELETE', `/api/v1/contacts?kind=contact&value=a%40b.example&mailboxId=${theirBox.id}`, undefined, 'contacts.mailbox_not_found'],
      ['PUT', '/api/v1/contacts', { kind: 'contact', value: 'a@b.example', signatureId: theirSignature.id }, 'contacts.signature_not_found'],
      ['PUT', '/api/v1/contacts/defaults/member', { signatureId: theirSignature.id }, 'contacts.signature_not_found'],
      ['PATCH', `/api/v1/contacts/signatures/${theirSignature.id}`, { name: 'mine' }, 'contacts.signature_not_found'],
      ['DELETE', `/api/v1/contacts/signatures/${theirSignature.id}`, undefined, 'contacts.signature_not_found'],
    ] as const;
    for (const [method, path, body, code] of probes) {
      for (const credential of [{ cookie: member.cookie }, { cookie: admin.cookie }]) {
        const response = await call(method, path, { ...credential, body });
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(response.body.error.code).toBe(code);
      }
    }
    expect(await db().contactSignature.findUniqueOrThrow({ where: { id: theirSignature.id } })).toMatchObject({ name: 'Victim' });
    expect(await db().contactMailboxDefaults.findUniqueOrThrow({ where: { mailboxId: theirBox.id } })).toMatchObject({ tone: 'formal' });
    expect(await db().contactEntry.count()).toBe(0);
  });

  it('keys with fewer scopes are refused as every route refuses them (403 api_key.scope_missing naming the scope)', async () => {
    const { secret: noContacts } = await createApiKeyFor(admin, ['tables:read', 'admin:write']);
    const { secret: readOnly } = await createApiKeyFor(admin, ['contacts:read']);
    const routes = [
      ['GET', '/api/v1/contacts', undefined, 'contacts:read'],
      ['GET', '/api/v1/contacts/resolve?address=a%40b.example', undefined, 'contacts:read'],
      ['GET', '/api/v1/contacts/defaults', undefined, 'contacts:read'],
      ['GET', '/api/v1/contacts/signatures', undefined, 'contacts:read'],
      ['PUT', '/api/v1/contacts', { kind: 'domain', value: 'scoped.example', layer: 'shared', status: 'blocked' }, 'contacts:write'],
      ['DELETE', '/api/v1/contacts?kind=domain&value=scoped.example&layer=shared', undefined, 'contacts:write'],
      ['PUT', '/api/v1/contacts/defaults/organisation', { tone: 'casual' }, 'contacts:write'],
      ['PUT', '/api/v1/contacts/defaults/member', { tone: 'casual' }, 'contacts:write'],
      ['POST', '/api/v1/contacts/signatures', { name: 'k', text: '' }, 'contacts:write'],
    ] as const;
    for (const [method, path, body, scope] of routes) {
      const keys = scope === 'contacts:read' ? [noContacts] : [noContacts, readOnly];
      for (const key of keys) {
        const response = await call(method, path, { key, body });
        expect(response.status, `${method} ${path}`).toBe(403);
        expect(response.body.error).toMatchObject({ code: 'api_key.scope_missing', details: { required: scope } });
      }
    }
    expect(await db().contactEntry.count()).toBe(0);
    expect(await db().contactOrgDefaults.count()).toBe(0);
  });
});
