/**
 * The mirror's folder rows follow the provider's folder list: listed folders are created or updated
 * (name, role, hierarchy, selectable; never the sync cursors), folders gone from the provider are
 * dropped with their mirrored messages. Roles move with the list: a role is held by one folder only.
 * Every write is fenced by the runner's lease on the mailbox (holdMailboxLease, writer.ts).
 */
import { db } from '../../core/db';
import type { ProviderFolder, SyncContext } from '../provider';
import { holdMailboxLease, resetFolder, type MirrorMailbox } from './writer';

export type FolderState = SyncContext['folders'][number];

export async function reconcileFolders(mailbox: MirrorMailbox, listed: ProviderFolder[]): Promise<FolderState[]> {
  const existing = await db().mailFolder.findMany({ where: { mailboxId: mailbox.id } });
  const listedKeys = new Set(listed.map((folder) => folder.key));
  const goneKeys = existing.filter((folder) => !listedKeys.has(folder.key)).map((folder) => folder.key);
  // Each gone folder's messages go in a fenced transaction of their own (a folder may hold many); the rows go below.
  for (const key of goneKeys) await resetFolder(mailbox, key, null);
  const byKey = new Map(existing.map((folder) => [folder.key, folder]));
  await db().$transaction(async (tx) => {
    await holdMailboxLease(tx, mailbox);
    if (goneKeys.length > 0) await tx.mailFolder.deleteMany({ where: { mailboxId: mailbox.id, key: { in: goneKeys } } });
    // Free roles first so the unique meaning of a role never rests on two rows at once.
    const roleChanges = listed.filter((folder) => byKey.get(folder.key)?.role !== folder.role);
    if (roleChanges.length > 0) {
      await tx.mailFolder.updateMany({ where: { mailboxId: mailbox.id, key: { in: roleChanges.map((folder) => folder.key) } }, data: { role: null } });
    }
    for (const folder of listed) {
      const data = {
        name: folder.name,
        role: folder.role,
        parentKey: folder.parentKey,
        depth: folder.depth,
        delimiter: folder.delimiter,
        providerId: folder.providerId,
        selectable: folder.selectable,
        ...(folder.color !== undefined ? { color: folder.color } : {}),
      };
      const known = byKey.get(folder.key);
      if (!known) await tx.mailFolder.create({ data: { mailboxId: mailbox.id, key: folder.key, ...data } });
      else if (
        known.name !== data.name ||
        known.role !== data.role ||
        known.parentKey !== data.parentKey ||
        known.depth !== data.depth ||
        known.delimiter !== data.delimiter ||
        known.providerId !== data.providerId ||
        known.selectable !== data.selectable
      ) {
        await tx.mailFolder.update({ where: { id: known.id }, data });
      }
    }
  });
  return loadFolderStates(mailbox.id);
}

export async function loadFolderStates(mailboxId: string): Promise<FolderState[]> {
  const rows = await db().mailFolder.findMany({ where: { mailboxId }, orderBy: { key: 'asc' } });
  return rows.map((row) => ({
    key: row.key,
    name: row.name,
    role: row.role as FolderState['role'],
    parentKey: row.parentKey,
    depth: row.depth,
    delimiter: row.delimiter,
    providerId: row.providerId,
    selectable: row.selectable,
    color: row.color,
    uidValidity: row.uidValidity,
    uidNext: row.uidNext,
    syncedUid: row.syncedUid,
    oldestUid: row.oldestUid,
    highestModseq: row.highestModseq,
    deltaToken: row.deltaToken,
  }));
}
