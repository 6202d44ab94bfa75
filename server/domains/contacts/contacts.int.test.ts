import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { createMailbox } from '../../testing/mail-factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { resolveContact } from '.';

await useTestDatabase();

let admin: TestMember;
let member: TestMember;
let other: TestMember;

beforeAll(async () => {
  admin = await createMember({ role: 'admin' });
  member = await createMember();
  other = await createMember();
});

const qs = (query: Record<string, string | number | undefined>) =>
  new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)])).toString();
const list = (who: TestMember, query: Record<string, string | number | undefined> = {}) => call('GET', `/api/v1/contacts?${qs(query)}`, { cookie: who.cookie });
const put = (who: TestMember, body: Record<string, unknown>) => call('PUT', '/api/v1/contacts', { cookie: who.cookie, body });
const remove = (who: TestMember, query: Record<string, string | undefined>) => call('DELETE', `/api/v1/contacts?${qs(query)}`, { cookie: who.cookie });

describe('PUT /api/v1/contacts creates or replaces one card and answers the resolved entry', () => {
  it('the member layer by default: 200 with the card, the resolution and its sources', async () => {
    const response = await put(member, { kind: 'contact', value: 'Jane@Put.Example', formality: 'tu', tone: 'casual', language: 'FR-fr', personalNotes: 'Met at the fair' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      kind: 'contact',
      value: 'jane@put.example',
      shared: null,
      member: { formality: 'tu', tone: 'casual', language: 'fr-FR', signatureId: null, personalNotes: 'Met at the fair' },
      memberByMailbox: [],
      resolved: { formality: 'tu', tone: 'casual', language: 'fr-FR', displayName: null, status: null, notes: ['Met at the fair'] },
      sources: { formality: 'member_contact', tone: 'member_contact', language: 'member_contact', displayName: null, status: null, notes: ['member_contact'] },
    });
  });

  it('replaces the whole card: a field left out becomes null', async () => {
    await put(member, { kind: 'contact', value: 'replace@put.example', formality: 'vous', tone: 'formal' });
    const again = await put(member, { kind: 'contact', value: 'REPLACE@put.example', tone: 'neutral' });
    expect(again.body.member).toMatchObject({ formality: null, tone: 'neutral' });
    expect(await db().contactMemberCard.count({ where: { memberId: member.id, entry: { value: 'replace@put.example' } } })).toBe(1);
  });

  it('normalisation: lower-case, IDN domains in punycode, one entry for both spellings', async () => {
    const unicode = await put(admin, { kind: 'domain', value: 'Bücher.Example', layer: 'shared', displayName: 'Bücher' });
    expect(unicode.body.value).toBe('xn--bcher-kva.example');
    const ascii = await put(admin, { kind: 'domain', value: 'XN--BCHER-KVA.example', layer: 'shared', displayName: 'Books' });
    expect(ascii.body.shared.displayName).toBe('Books');
    expect(await db().contactEntry.count({ where: { value: 'xn--bcher-kva.example' } })).toBe(1);
    const address = await put(member, { kind: 'contact', value: 'Anna@Bücher.example', tone: 'formal' });
    expect(address.body.value).toBe('anna@xn--bcher-kva.example');
    // The address's domain card applies to it.
    expect(address.body.resolved.displayName).toBe('Books');
    expect(address.body.sources.displayName).toBe('shared_domain');
  });

  it('the shared layer is for administrators: 403 auth.forbidden otherwise, and nothing is written', async () => {
    const refused = await put(member, { kind: 'contact', value: 'ceo@forbidden.example', layer: 'shared', displayName: 'CEO' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('auth.forbidden');
    expect(await db().contactSharedCard.count({ where: { entry: { value: 'ceo@forbidden.example' } } })).toBe(0);
  });

  it('every change of the shared layer is audited, in the transaction of the change', async () => {
    const saved = await put(admin, { kind: 'domain', value: 'audited.example', layer: 'shared', status: 'vip', orgNotes: 'Key account' });
    expect(saved.status).toBe(200);
    const entries = await db().auditEntry.findMany({ where: { action: 'contacts.shared_card_saved', actorMemberId: admin.id }, orderBy: { at: 'desc' } });
    expect(entries[0]).toMatchObject({ targetKind: 'contact_shared_card', targetId: saved.body.shared.id });
    expect(entries[0]!.details).toMatchObject({ kind: 'domain', value: 'audited.example', status: 'vip', orgNotes: 'Key account' });
    expect((await remove(admin, { kind: 'domain', value: 'audited.example', layer: 'shared' })).status).toBe(204);
    expect(await db().auditEntry.count({ where: { action: 'contacts.shared_card_deleted', actorMemberId: admin.id } })).toBe(1);
  });

  it('a field of the other layer, a bad status or language, a value that is not an address or domain: 400 request.bad_request', async () => {
    const bodies = [
      { kind: 'contact', value: 'a@b.example', displayName: 'member layer has none' },
      { kind: 'contact', value: 'a@b.example', layer: 'shared', formality: 'tu' },
      { kind: 'contact', value: 'a@b.example', layer: 'shared', mailboxId: '00000000-0000-4000-8000-000000000000' },
      { kind: 'contact', value: 'a@b.example', formality: 'thou' },
      { kind: 'contact', value: 'a@b.example', tone: 'rude' },
      { kind: 'contact', value: 'a@b.example', language: 'not a tag' },
      { kind: 'contact', value: 'a@b.example', layer: 'shared', status: 'gold' },
      { kind: 'contact', value: 'a@b.example', personalNotes: 'x'.repeat(2001) },
      { kind: 'contact', value: 'not-an-address' },
      { kind: 'domain', value: 'localhost' },
      { kind: 'domain', value: 'a@b.example' },
      { kind: 'contact', value: '' },
      { kind: 'contact', value: `${'a'.repeat(64)}@${'b'.repeat(250)}.example`.slice(0, 321) },
      { kind: 'person', value: 'a@b.example' },
      { kind: 'contact', value: 'a@b.example', extra: 1 },
    ];
    for (const body of bodies) {
      const response = await put(admin, body);
      expect(response.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(response.body.error.code).toBe('request.bad_request');
    }
  });
});

describe('concurrent writes of one value', () => {
  it('ten PUTs at once of the same card: all 200, one entry, one card (the entry row serialises them)', async () => {
    const own = await createMember();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) => put(own, { kind: 'contact', value: index % 2 ? 'Race@Concurrent.example' : 'race@concurrent.example', tone: 'formal', personalNotes: `n${index}` })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 10 }, () => 200));
    expect(await db().contactEntry.count({ where: { value: 'race@concurrent.example' } })).toBe(1);
    expect(await db().contactMemberCard.count({ where: { memberId: own.id } })).toBe(1);
  });
});

describe('mailbox cards and the mailbox view', () => {
  it('a card for one mailbox resolves from that mailbox only; an unknown or another member’s mailbox is contacts.mailbox_not_found', async () => {
    const own = await createMember();
    const work = await createMailbox(own);
    const home = await createMailbox(own);
    const theirs = await createMailbox(other);
    await put(own, { kind: 'contact', value: 'boss@view.example', formality: 'vous' });
    const card = await put(own, { kind: 'contact', value: 'boss@view.example', mailboxId: work.id, formality: 'tu' });
    expect(card.body.memberByMailbox).toEqual([expect.objectContaining({ mailboxId: work.id, formality: 'tu' })]);
    expect(card.body.resolved.formality).toBe('tu');
    expect(card.body.sources.formality).toBe('member_mailbox_contact');

    const fromWork = await list(own, { mailboxId: work.id });
    expect(fromWork.body.items[0]).toMatchObject({ value: 'boss@view.example', resolved: { formality: 'tu' }, sources: { formality: 'member_mailbox_contact' } });
    const fromHome = await list(own, { mailboxId: home.id });
    expect(fromHome.body.items[0]).toMatchObject({ memberByMailbox: [], resolved: { formality: 'vous' }, sources: { formality: 'member_contact' } });
    const noView = await list(own);
    expect(noView.body.items[0].memberByMailbox).toHaveLength(1);
    expect(noView.body.items[0].resolved.formality).toBe('vous');

    for (const mailboxId of [theirs.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid', '__proto__']) {
      for (const response of [
        await list(own, { mailboxId }),
        await put(own, { kind: 'contact', value: 'boss@view.example', mailboxId, tone: 'casual' }),
        await remove(own, { kind: 'contact', value: 'boss@view.example', mailboxId }),
      ]) {
        expect(response.status, mailboxId).toBe(404);
        expect(response.body.error.code).toBe('contacts.mailbox_not_found');
      }
    }
    expect(await db().contactMailboxCard.count({ where: { mailboxId: theirs.id } })).toBe(0);
  });
});

describe('DELETE /api/v1/contacts removes exactly one card', () => {
  it('member layer with mailboxId: that mailbox’s card; without: the global card only; shared: the organisation’s (admins)', async () => {
    const own = await createMember();
    const box = await createMailbox(own);
    const value = 'three@delete.example';
    await put(own, { kind: 'contact', value, tone: 'formal' });
    await put(own, { kind: 'contact', value, mailboxId: box.id, tone: 'casual' });
    await put(admin, { kind: 'contact', value, layer: 'shared', displayName: 'Three' });
    const entry = await db().contactEntry.findFirstOrThrow({ where: { kind: 'contact', value } });

    expect((await remove(own, { kind: 'contact', value, mailboxId: box.id })).status).toBe(204);
    expect(await db().contactMailboxCard.count({ where: { entryId: entry.id } })).toBe(0);
    expect(await db().contactMemberCard.count({ where: { entryId: entry.id } })).toBe(1);

    await put(own, { kind: 'contact', value, mailboxId: box.id, tone: 'casual' });
    const global = await remove(own, { kind: 'contact', value: 'THREE@delete.example' });
    expect(global.status).toBe(204);
    expect(global.body).toBeNull();
    expect(await db().contactMemberCard.count({ where: { entryId: entry.id } })).toBe(0);
    expect(await db().contactMailboxCard.count({ where: { entryId: entry.id } })).toBe(1);

    const forbidden = await remove(own, { kind: 'contact', value, layer: 'shared' });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe('auth.forbidden');
    expect(await db().contactSharedCard.count({ where: { entryId: entry.id } })).toBe(1);
    expect((await remove(admin, { kind: 'contact', value, layer: 'shared' })).status).toBe(204);
    expect(await db().contactSharedCard.count({ where: { entryId: entry.id } })).toBe(0);
  });

  it('another member’s card is never touched; nothing to delete is 204; kind and value are required', async () => {
    await put(other, { kind: 'contact', value: 'kept@delete.example', tone: 'formal' });
    expect((await remove(member, { kind: 'contact', value: 'kept@delete.example' })).status).toBe(204);
    expect(await db().contactMemberCard.count({ where: { memberId: other.id, entry: { value: 'kept@delete.example' } } })).toBe(1);
    for (const query of [{ kind: 'contact' }, { value: 'a@b.example' }, { kind: 'contact', value: 'a@b.example', layer: 'all' }]) {
      const response = await remove(member, query);
      expect(response.status, JSON.stringify(query)).toBe(400);
      expect(response.body.error.code).toBe('request.bad_request');
    }
  });
});

describe('GET /api/v1/contacts: what is listed, in which order, and the cursor rules', () => {
  it('lists entries with a card in the chosen layers, never through another member’s card', async () => {
    const own = await createMember();
    await put(own, { kind: 'contact', value: 'mine@layers.example', tone: 'formal' });
    await put(admin, { kind: 'contact', value: 'shared@layers.example', layer: 'shared', displayName: 'Shared' });
    await put(other, { kind: 'contact', value: 'theirs@layers.example', tone: 'casual', personalNotes: 'secret note' });
    const values = async (query: Record<string, string>) => (await list(own, { q: 'layers.example', ...query })).body.items.map((item: { value: string }) => item.value);
    expect(await values({})).toEqual(['shared@layers.example', 'mine@layers.example']);
    expect(await values({ layer: 'member' })).toEqual(['mine@layers.example']);
    expect(await values({ layer: 'shared' })).toEqual(['shared@layers.example']);
    // Another member's note neither lists nor matches anything.
    expect((await list(own, { q: 'secret note' })).body.items).toEqual([]);
  });

  it('q matches the address or domain, the shared display name and notes, and the member’s own notes, case-blind', async () => {
    const own = await createMember();
    await put(admin, { kind: 'domain', value: 'qmatch.example', layer: 'shared', displayName: 'Zebra Corp', orgNotes: 'Pays late 100%' });
    await put(own, { kind: 'contact', value: 'x@elsewhere.example', personalNotes: 'Prefers Mornings' });
    const hits = async (q: string) => (await list(own, { q })).body.items.map((item: { value: string }) => item.value);
    expect(await hits('QMATCH')).toEqual(['qmatch.example']);
    expect(await hits('zebra')).toEqual(['qmatch.example']);
    expect(await hits('late 100%')).toEqual(['qmatch.example']);
    expect(await hits('morning')).toEqual(['x@elsewhere.example']);
    // `%` and `_` are matched as themselves.
    expect(await hits('_')).toEqual([]);
  });

  it('kind filters', async () => {
    const own = await createMember();
    await put(own, { kind: 'domain', value: 'kinds.example', tone: 'formal' });
    await put(own, { kind: 'contact', value: 'a@kinds.example', tone: 'formal' });
    expect((await list(own, { kind: 'domain', layer: 'member' })).body.items.map((item: { value: string }) => item.value)).toEqual(['kinds.example']);
    expect((await list(own, { kind: 'contact', layer: 'member' })).body.items.map((item: { value: string }) => item.value)).toEqual(['a@kinds.example']);
  });

  it('newest first by last update; pages are stable against insertion; nextCursor is null at the end', async () => {
    const own = await createMember();
    for (let index = 0; index < 5; index += 1) {
      await put(own, { kind: 'contact', value: `p${index}@pages.example`, tone: 'formal' });
      await sleep(3);
    }
    const first = await list(own, { layer: 'member', limit: 2 });
    expect(first.body.items.map((item: { value: string }) => item.value)).toEqual(['p4@pages.example', 'p3@pages.example']);
    expect(typeof first.body.nextCursor).toBe('string');
    // An entry written between pages goes before the cursor: the next page neither repeats nor skips.
    await put(own, { kind: 'contact', value: 'new@pages.example', tone: 'formal' });
    const second = await list(own, { layer: 'member', limit: 2, cursor: first.body.nextCursor });
    expect(second.body.items.map((item: { value: string }) => item.value)).toEqual(['p2@pages.example', 'p1@pages.example']);
    const third = await list(own, { layer: 'member', limit: 2, cursor: second.body.nextCursor });
    expect(third.body.items.map((item: { value: string }) => item.value)).toEqual(['p0@pages.example']);
    expect(third.body.nextCursor).toBeNull();
    // An update moves an entry to the top.
    await put(own, { kind: 'contact', value: 'p0@pages.example', tone: 'casual' });
    expect((await list(own, { layer: 'member', limit: 1 })).body.items[0].value).toBe('p0@pages.example');
  });

  it('limit: 50 by default, 200 at most (above is a 400, not a clamp); an unreadable cursor gives the first page', async () => {
    for (const limit of [0, 201, 'ten']) {
      const response = await list(member, { limit });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('request.bad_request');
    }
    expect((await list(member, { limit: 200 })).status).toBe(200);
    const unreadable = await list(member, { cursor: 'not-a-cursor' });
    expect(unreadable.status).toBe(200);
    expect(unreadable.body.items).toEqual((await list(member)).body.items);
  });

  it('an API key needs contacts:read to list and contacts:write to write (403 api_key.scope_missing)', async () => {
    const { secret: readKey } = await createApiKeyFor(member, ['contacts:read']);
    const { secret: otherKey } = await createApiKeyFor(member, ['tables:read']);
    expect((await call('GET', '/api/v1/contacts', { key: readKey })).status).toBe(200);
    const noScope = await call('GET', '/api/v1/contacts', { key: otherKey });
    expect(noScope.status).toBe(403);
    expect(noScope.body.error).toMatchObject({ code: 'api_key.scope_missing', details: { required: 'contacts:read' } });
    const readOnly = await call('PUT', '/api/v1/contacts', { key: readKey, body: { kind: 'contact', value: 'k@keys.example', tone: 'formal' } });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.error).toMatchObject({ code: 'api_key.scope_missing', details: { required: 'contacts:write' } });
    const deleteReadOnly = await call('DELETE', '/api/v1/contacts?kind=contact&value=k%40keys.example', { key: readKey });
    expect(deleteReadOnly.status).toBe(403);
    expect(await db().contactEntry.count({ where: { value: 'k@keys.example' } })).toBe(0);
  });
});

describe('precedence through the stored layers (the pure table is resolve.test.ts)', () => {
  it('all nine layers stored: each field from the layer the issue’s order gives, notes from every layer', async () => {
    const own = await createMember();
    const box = await createMailbox(own);
    const signature = (await call('POST', '/api/v1/contacts/signatures', { cookie: own.cookie, body: { name: 'Box', text: '-- box' } })).body.signature;
    await call('PUT', '/api/v1/contacts/defaults/organisation', { cookie: admin.cookie, body: { formality: 'vous', tone: 'formal', language: 'fr', notes: 'org' } });
    await call('PUT', '/api/v1/contacts/defaults/member', { cookie: own.cookie, body: { language: 'en', notes: 'member default' } });
    await call('PUT', `/api/v1/contacts/defaults/mailboxes/${box.id}`, { cookie: own.cookie, body: { signatureId: signature.id, notes: 'mailbox default' } });
    await put(admin, { kind: 'domain', value: 'nine.example', layer: 'shared', displayName: 'Nine Inc', status: 'customer', orgNotes: 'shared domain' });
    await put(own, { kind: 'domain', value: 'nine.example', tone: 'neutral', personalNotes: 'member domain' });
    await put(own, { kind: 'domain', value: 'nine.example', mailboxId: box.id, personalNotes: 'mailbox domain' });
    await put(admin, { kind: 'contact', value: 'ceo@eu.nine.example', layer: 'shared', status: 'vip', orgNotes: 'shared contact' });
    await put(own, { kind: 'contact', value: 'ceo@eu.nine.example', formality: 'tu', personalNotes: 'member contact' });
    const last = await put(own, { kind: 'contact', value: 'ceo@eu.nine.example', mailboxId: box.id, tone: 'casual', personalNotes: 'mailbox contact' });
    expect(last.body.resolved).toEqual({
      formality: 'tu',
      tone: 'casual',
      language: 'en',
      displayName: 'Nine Inc',
      signatureText: '-- box',
      signatureId: signature.id,
      status: 'vip',
      notes: ['mailbox contact', 'member contact', 'shared contact', 'mailbox domain', 'member domain', 'shared domain', 'mailbox default', 'member default', 'org'],
    });
    expect(last.body.sources).toEqual({
      formality: 'member_contact',
      tone: 'member_mailbox_contact',
      language: 'member_default',
      displayName: 'shared_domain',
      signatureText: 'member_mailbox_default',
      status: 'shared_contact',
      notes: ['member_mailbox_contact', 'member_contact', 'shared_contact', 'member_mailbox_domain', 'member_domain', 'shared_domain', 'member_mailbox_default', 'member_default', 'org_default'],
    });
    // The face's resolveContact reads the same, for an address with no entry of its own too.
    const viaFace = await resolveContact({ memberId: own.id, mailboxId: box.id, address: 'CEO@eu.nine.example' });
    expect(viaFace.resolved).toEqual(last.body.resolved);
    const sibling = await resolveContact({ memberId: own.id, address: 'cfo@nine.example' });
    expect(sibling.sources).toMatchObject({ displayName: 'shared_domain', tone: 'member_domain', formality: 'org_default', signatureText: null });
    await expect(resolveContact({ memberId: other.id, mailboxId: box.id, address: 'ceo@eu.nine.example' })).rejects.toMatchObject({ code: 'contacts.mailbox_not_found' });
    // GET /contacts/resolve is the same resolution over REST.
    const viaRoute = await call('GET', `/api/v1/contacts/resolve?address=ceo%40eu.nine.example&mailboxId=${box.id}`, { cookie: own.cookie });
    expect(viaRoute.body).toMatchObject({ address: 'ceo@eu.nine.example', resolved: last.body.resolved, sources: last.body.sources });
    // Clean the organisation's defaults for the other tests of the file.
    await call('PUT', '/api/v1/contacts/defaults/organisation', { cookie: admin.cookie, body: {} });
  });
});

describe('the list’s fast path (no q, no kind) ranks as the full statement does', () => {
  it('paging with few cards read per layer gives the full ranking, page after page, in every layer and view', async () => {
    const { newestEntries, rankedEntries } = await import('./repo-list');
    const { encodeCursor } = await import('../../core/http/cursor');
    const own = await createMember();
    const box = await createMailbox(own);
    const base = Date.parse('2026-06-01T00:00:00.000Z');
    // 14 entries, each with a mix of cards at times that interleave across the layers.
    for (let index = 0; index < 14; index += 1) {
      const entry = await db().contactEntry.create({ data: { kind: 'contact', value: `fast${index}@fastpath.example` } });
      const at = (minutes: number) => new Date(base + minutes * 60_000);
      if (index % 3 !== 1) await db().contactSharedCard.create({ data: { entryId: entry.id, displayName: `F${index}`, updatedAt: at((index * 7) % 23) } });
      if (index % 2 === 0) await db().contactMemberCard.create({ data: { entryId: entry.id, memberId: own.id, tone: 'formal', updatedAt: at((index * 5) % 19) } });
      if (index % 4 !== 3) await db().contactMailboxCard.create({ data: { entryId: entry.id, memberId: own.id, mailboxId: box.id, tone: 'casual', updatedAt: at((index * 11) % 29) } });
    }
    // The shared layer also holds the cards of the file's other tests: they page with the rest.
    for (const layer of ['all', 'shared', 'member'] as const) {
      for (const mailboxId of [null, box.id]) {
        const filter = { memberId: own.id, layer, mailboxId, limit: 2 };
        const full = await rankedEntries({ ...filter, after: null, limit: 100 });
        const seen: string[] = [];
        let after = null as null | { at: Date; id: string };
        let fastPages = 0;
        for (let guard = 0; guard < 100; guard += 1) {
          const fast = await newestEntries({ ...filter, after }, 3);
          if (fast) fastPages += 1;
          const rows = fast ?? (await rankedEntries({ ...filter, after }));
          const page = rows.slice(0, 2);
          seen.push(...page.map((row) => row.id));
          if (rows.length <= 2) break;
          after = { at: page[1]!.at, id: page[1]!.id };
          expect(encodeCursor(after)).toBeTypeOf('string');
        }
        expect(seen, `${layer} ${mailboxId ? 'mailbox' : 'none'}`).toEqual(full.map((row) => row.id).slice(0, seen.length));
        expect(seen.length).toBe(full.length);
        expect(fastPages).toBeGreaterThan(0);
      }
    }
  });
});
