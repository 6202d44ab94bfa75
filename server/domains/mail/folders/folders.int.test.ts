import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../core/db';
import { createApiKeyFor, createMember, type TestMember } from '../../../testing/factories';
import { createMailbox, createMessage } from '../../../testing/mail-factories';
import { call } from '../../../testing/rest-client';
import { useTestDatabase } from '../../../testing/test-database';

await useTestDatabase();

let member: TestMember;
let imap: { id: string };
let gmailLike: { id: string };

type Folder = { key: string; role: string | null; unreadCount: number; totalCount: number; parentKey: string | null; depth: number; name: string | null };
const folders = async (query = '', who: TestMember = member) => call<{ folders: Folder[]; capabilities: { permanentDelete: boolean } }>('GET', `/api/v1/folders${query}`, { cookie: who.cookie });
const byKey = (list: Folder[]) => new Map(list.map((folder) => [folder.key, folder]));

beforeAll(async () => {
  member = await createMember();
  imap = await createMailbox(member);
  gmailLike = await createMailbox(member, { provider: 'mail_provider_a', folders: false });
  await db().mailFolder.createMany({
    data: [
      { mailboxId: imap.id, key: 'Clients', name: 'Clients' },
      { mailboxId: imap.id, key: 'Clients/Acme', name: 'Acme', parentKey: 'Clients', depth: 1, color: '#ff0000' },
      { mailboxId: gmailLike.id, key: 'INBOX', role: 'inbox', name: 'Inbox' },
      { mailboxId: gmailLike.id, key: 'TRASH', role: 'trash', name: 'Trash' },
      { mailboxId: gmailLike.id, key: 'Clients', name: 'Clients' },
    ],
  });
  await createMessage(imap, { seen: false });
  await createMessage(imap, { seen: true, flagged: true });
  await createMessage(imap, { folderKey: 'Trash', seen: false, flagged: true });
  await createMessage(imap, { folderKey: 'Junk', seen: false });
  await createMessage(imap, { folderKey: 'Clients/Acme', seen: false });
  const labelled = await createMessage(imap, { folderKey: 'Archive', seen: true });
  await db().mailMessage.update({ where: { id: labelled.id }, data: { labels: ['Clients'] } });
  await createMessage(gmailLike, { seen: false });
  await createMessage(gmailLike, { folderKey: 'Clients', seen: true });
});

describe('GET /api/v1/folders', () => {
  it('aggregates the member’s mailboxes: system roles first by role, personal folders by key', async () => {
    const response = await folders();
    expect(response.status).toBe(200);
    expect(response.body.folders.map((folder) => folder.key)).toEqual(['inbox', 'starred', 'sent', 'drafts', 'archive', 'all', 'spam', 'trash', 'Clients', 'Clients/Acme']);
    const map = byKey(response.body.folders);
    expect(map.get('inbox')).toMatchObject({ role: 'inbox', unreadCount: 2, totalCount: 3 });
    expect(map.get('starred')).toMatchObject({ role: 'starred', unreadCount: 0, totalCount: 1 });
    expect(map.get('all')).toMatchObject({ role: 'all', unreadCount: 3, totalCount: 6 });
    expect(map.get('trash')).toMatchObject({ unreadCount: 1, totalCount: 1 });
    expect(map.get('spam')).toMatchObject({ unreadCount: 1, totalCount: 1 });
    expect(map.get('sent')).toMatchObject({ unreadCount: 0, totalCount: 0 });
    // A label counts in its folder too; both mailboxes' Clients add up.
    expect(map.get('Clients')).toMatchObject({ role: null, totalCount: 2, unreadCount: 0, parentKey: null, depth: 0 });
    expect(map.get('Clients/Acme')).toMatchObject({ role: null, parentKey: 'Clients', depth: 1, totalCount: 1, unreadCount: 1, color: '#ff0000' });
    // One mailbox cannot delete permanently: neither can the aggregate.
    expect(response.body.capabilities).toEqual({ permanentDelete: false });
  });

  it('gives one mailbox’s own keys with mailboxId, the role name where it has no folder', async () => {
    const response = await folders(`?mailboxId=${gmailLike.id}`);
    expect(response.body.folders.map((folder) => [folder.key, folder.role])).toEqual([
      ['INBOX', 'inbox'],
      ['starred', 'starred'],
      ['sent', 'sent'],
      ['drafts', 'drafts'],
      ['archive', 'archive'],
      ['all', 'all'],
      ['spam', 'spam'],
      ['TRASH', 'trash'],
      ['Clients', null],
    ]);
    expect(response.body.capabilities).toEqual({ permanentDelete: false });
    const own = await folders(`?mailboxId=${imap.id}`);
    expect(byKey(own.body.folders).get('INBOX')).toMatchObject({ role: 'inbox', unreadCount: 1, totalCount: 2, name: 'INBOX' });
    expect(own.body.capabilities).toEqual({ permanentDelete: true });
  });

  it('keys every folder so the threads list takes it', async () => {
    for (const folder of (await folders()).body.folders) {
      const response = await call('GET', `/api/v1/threads?folder=${encodeURIComponent(folder.key)}`, { cookie: member.cookie });
      expect(response.status, folder.key).toBe(200);
    }
  });

  it('always has the system roles, even without any mailbox', async () => {
    const lonely = await createMember();
    const response = await folders('', lonely);
    expect(response.body.folders.map((folder) => folder.role)).toEqual(['inbox', 'starred', 'sent', 'drafts', 'archive', 'all', 'spam', 'trash']);
    expect(response.body.folders.every((folder) => folder.totalCount === 0 && folder.unreadCount === 0)).toBe(true);
    expect(response.body.capabilities).toEqual({ permanentDelete: false });
  });

  it('answers 400 request.bad_request for a mailbox that is not the member’s', async () => {
    const other = await createMember();
    const theirs = await createMailbox(other);
    const response = await folders(`?mailboxId=${theirs.id}`);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: { code: 'request.bad_request' } });
    expect((await folders('?mailboxId=nope')).status).toBe(400);
  });

  it('needs mailboxes:read', async () => {
    const { secret } = await createApiKeyFor(member, ['messages:read']);
    expect((await call('GET', '/api/v1/folders', { key: secret })).body.error).toMatchObject({ code: 'api_key.scope_missing', details: { required: 'mailboxes:read' } });
  });
});
