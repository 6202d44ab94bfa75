import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { createMailbox } from '../../testing/mail-factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { signaturesPerMember } from './signatures';

await useTestDatabase();

let admin: TestMember;
let member: TestMember;
let other: TestMember;

beforeAll(async () => {
  admin = await createMember({ role: 'admin' });
  member = await createMember();
  other = await createMember();
});

const createSignature = (who: TestMember, body: Record<string, unknown>) => call('POST', '/api/v1/contacts/signatures', { cookie: who.cookie, body });

describe('signatures: a member’s resource', () => {
  it('creates (201), lists newest first, edits, deletes (204)', async () => {
    const own = await createMember();
    const first = await createSignature(own, { name: ' Formal ', text: 'Best regards,\nAnn' });
    expect(first.status).toBe(201);
    expect(first.body.signature).toMatchObject({ name: 'Formal', text: 'Best regards,\nAnn', html: null });
    const second = await createSignature(own, { name: 'Casual', text: 'Cheers' });
    const listed = await call('GET', '/api/v1/contacts/signatures', { cookie: own.cookie });
    expect(listed.body.signatures.map((signature: { name: string }) => signature.name)).toEqual(['Casual', 'Formal']);
    const edited = await call('PATCH', `/api/v1/contacts/signatures/${first.body.signature.id}`, { cookie: own.cookie, body: { text: 'Kind regards' } });
    expect(edited.status).toBe(200);
    expect(edited.body.signature).toMatchObject({ name: 'Formal', text: 'Kind regards' });
    const removed = await call('DELETE', `/api/v1/contacts/signatures/${second.body.signature.id}`, { cookie: own.cookie });
    expect(removed.status).toBe(204);
    expect((await call('GET', '/api/v1/contacts/signatures', { cookie: own.cookie })).body.signatures).toHaveLength(1);
  });

  it('HTML is stored sanitised with the mail sanitiser: no script, no handler, no javascript: link; remote logos kept', async () => {
    const response = await createSignature(member, {
      name: 'Html',
      text: 'Ann',
      html: '<p onclick="steal()">Ann <b>Smith</b><script>alert(1)</script><a href="javascript:alert(1)">x</a><img src="https://cdn.example/logo.png"></p><form><input></form>',
    });
    expect(response.status).toBe(201);
    const html: string = response.body.signature.html;
    expect(html).toContain('<b>Smith</b>');
    expect(html).toContain('https://cdn.example/logo.png');
    for (const banned of ['<script', 'onclick', 'javascript:', '<form', '<input', '<body', '<html']) expect(html).not.toContain(banned);
    const emptied = await createSignature(member, { name: 'Nothing left', text: 'x', html: '<script>alert(1)</script>' });
    expect(emptied.body.signature.html).toBeNull();
  });

  it('another member’s signature is contacts.signature_not_found everywhere, and stays as it was', async () => {
    const theirs = (await createSignature(other, { name: 'Theirs', text: 'theirs' })).body.signature;
    const box = await createMailbox(member);
    const attempts = [
      await call('PATCH', `/api/v1/contacts/signatures/${theirs.id}`, { cookie: member.cookie, body: { text: 'mine now' } }),
      await call('DELETE', `/api/v1/contacts/signatures/${theirs.id}`, { cookie: member.cookie }),
      await call('PUT', '/api/v1/contacts', { cookie: member.cookie, body: { kind: 'contact', value: 'a@sig.example', signatureId: theirs.id } }),
      await call('PUT', '/api/v1/contacts/defaults/member', { cookie: member.cookie, body: { signatureId: theirs.id } }),
      await call('PUT', `/api/v1/contacts/defaults/mailboxes/${box.id}`, { cookie: member.cookie, body: { signatureId: theirs.id } }),
      await call('DELETE', '/api/v1/contacts/signatures/not-a-uuid', { cookie: member.cookie }),
      await call('PATCH', '/api/v1/contacts/signatures/00000000-0000-4000-8000-000000000000', { cookie: member.cookie, body: { text: 'x' } }),
    ];
    for (const response of attempts) {
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('contacts.signature_not_found');
    }
    expect(await db().contactSignature.findUniqueOrThrow({ where: { id: theirs.id } })).toMatchObject({ text: 'theirs' });
  });

  it(`at most ${signaturesPerMember} per member: 409 contacts.signature_limit_reached`, async () => {
    const own = await createMember();
    await db().contactSignature.createMany({ data: Array.from({ length: signaturesPerMember }, (_, index) => ({ memberId: own.id, name: `s${index}`, text: '' })) });
    const refused = await createSignature(own, { name: 'one more', text: '' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'contacts.signature_limit_reached', details: { limit: signaturesPerMember } });
  });

  it('bounds: name 1-100, text ≤ 10,000, html ≤ 100,000, no unknown field', async () => {
    for (const body of [{ name: '', text: '' }, { name: 'x'.repeat(101), text: '' }, { name: 'n', text: 'x'.repeat(10_001) }, { name: 'n', text: '', html: 'x'.repeat(100_001) }, { name: 'n' }, { name: 'n', text: '', memberId: other.id }]) {
      const response = await createSignature(member, body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.body.error.code).toBe('request.bad_request');
    }
  });

  it('deleting a signature clears the cards and defaults that named it', async () => {
    const own = await createMember();
    const box = await createMailbox(own);
    const signature = (await createSignature(own, { name: 'Gone soon', text: '-- gone' })).body.signature;
    await call('PUT', `/api/v1/contacts/defaults/mailboxes/${box.id}`, { cookie: own.cookie, body: { signatureId: signature.id } });
    const card = await call('PUT', '/api/v1/contacts', { cookie: own.cookie, body: { kind: 'contact', value: 'b@sig.example', signatureId: signature.id } });
    expect(card.body.resolved).toMatchObject({ signatureId: signature.id, signatureText: '-- gone' });
    await call('DELETE', `/api/v1/contacts/signatures/${signature.id}`, { cookie: own.cookie });
    const after = await call('GET', `/api/v1/contacts?mailboxId=${box.id}`, { cookie: own.cookie });
    expect(after.body.items[0]).toMatchObject({ member: { signatureId: null }, resolved: { signatureId: null, signatureText: null } });
    expect((await call('GET', `/api/v1/contacts/defaults?mailboxId=${box.id}`, { cookie: own.cookie })).body.mailbox.signatureId).toBeNull();
  });
});

describe('defaults: the organisation’s (administrators, audited), the member’s, a mailbox’s', () => {
  it('reads all three; a layer never set reads null with updatedAt null', async () => {
    const own = await createMember();
    const box = await createMailbox(own);
    const response = await call('GET', `/api/v1/contacts/defaults?mailboxId=${box.id}`, { cookie: own.cookie });
    expect(response.status).toBe(200);
    expect(response.body.member).toEqual({ formality: null, tone: null, language: null, notes: null, signatureId: null, updatedAt: null });
    expect(response.body.mailbox).toEqual({ formality: null, tone: null, language: null, notes: null, signatureId: null, updatedAt: null, mailboxId: box.id });
    expect((await call('GET', '/api/v1/contacts/defaults', { cookie: own.cookie })).body.mailbox).toBeNull();
  });

  it('the organisation’s defaults: administrators only (403 auth.forbidden), every change audited, every member reads them', async () => {
    const refused = await call('PUT', '/api/v1/contacts/defaults/organisation', { cookie: member.cookie, body: { formality: 'tu' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('auth.forbidden');
    const saved = await call('PUT', '/api/v1/contacts/defaults/organisation', { cookie: admin.cookie, body: { formality: 'vous', language: 'EN-gb', notes: 'Be kind' } });
    expect(saved.status).toBe(200);
    expect(saved.body.organisation).toMatchObject({ formality: 'vous', tone: null, language: 'en-GB', notes: 'Be kind' });
    const audit = await db().auditEntry.findFirstOrThrow({ where: { action: 'contacts.org_defaults_saved', actorMemberId: admin.id } });
    expect(audit.details).toMatchObject({ formality: 'vous', language: 'en-GB', notes: 'Be kind' });
    expect((await call('GET', '/api/v1/contacts/defaults', { cookie: member.cookie })).body.organisation).toMatchObject({ formality: 'vous' });
    await call('PUT', '/api/v1/contacts/defaults/organisation', { cookie: admin.cookie, body: {} });
  });

  it('a member’s and a mailbox’s defaults are their own: another member’s mailbox is contacts.mailbox_not_found', async () => {
    const own = await createMember();
    const box = await createMailbox(own);
    const theirs = await createMailbox(other);
    const signature = (await createSignature(own, { name: 'Box', text: '-- box' })).body.signature;
    const mine = await call('PUT', '/api/v1/contacts/defaults/member', { cookie: own.cookie, body: { tone: 'neutral', signatureId: null } });
    expect(mine.body.member).toMatchObject({ tone: 'neutral', signatureId: null });
    const boxDefaults = await call('PUT', `/api/v1/contacts/defaults/mailboxes/${box.id}`, { cookie: own.cookie, body: { signatureId: signature.id } });
    expect(boxDefaults.body.mailbox).toMatchObject({ mailboxId: box.id, signatureId: signature.id });
    // The mailbox's default signature resolves for any address seen from that mailbox.
    const resolved = await call('GET', `/api/v1/contacts/resolve?address=anyone%40x.example&mailboxId=${box.id}`, { cookie: own.cookie });
    expect(resolved.body).toMatchObject({ resolved: { signatureText: '-- box', tone: 'neutral' }, sources: { signatureText: 'member_mailbox_default', tone: 'member_default' } });
    for (const id of [theirs.id, '00000000-0000-4000-8000-000000000000', 'x']) {
      const response = await call('PUT', `/api/v1/contacts/defaults/mailboxes/${id}`, { cookie: own.cookie, body: { tone: 'formal' } });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('contacts.mailbox_not_found');
    }
    expect(await db().contactMailboxDefaults.count({ where: { mailboxId: theirs.id } })).toBe(0);
  });

  it('a key with contacts:read cannot write defaults or signatures; an administrator’s key with contacts:read cannot set the organisation’s', async () => {
    const { secret: readKey } = await createApiKeyFor(admin, ['contacts:read']);
    for (const [method, path, body] of [
      ['PUT', '/api/v1/contacts/defaults/organisation', { tone: 'casual' }],
      ['PUT', '/api/v1/contacts/defaults/member', { tone: 'casual' }],
      ['POST', '/api/v1/contacts/signatures', { name: 'k', text: '' }],
    ] as const) {
      const response = await call(method, path, { key: readKey, body });
      expect(response.status, path).toBe(403);
      expect(response.body.error).toMatchObject({ code: 'api_key.scope_missing', details: { required: 'contacts:write' } });
    }
    expect((await call('GET', '/api/v1/contacts/defaults', { key: readKey })).status).toBe(200);
  });
});
