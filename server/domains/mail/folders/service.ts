/**
 * The folder list (GET /api/v1/folders): every system role, always, in a fixed order, then the
 * personal folders by key (a parent before its children), with message counts from the mirror.
 *
 * With `mailboxId`, system folders carry that mailbox's own keys (`INBOX`, `Deleted Items`); a role
 * the mailbox has no folder for is keyed by the role name. Without it, the member's mailboxes are
 * aggregated: system folders by role (keyed by the role name, counts summed), personal folders by
 * key. Either way a key shown here is a valid `folder` for the threads list.
 */
import type { AuthenticatedActor } from '../../../core/auth/access';
import { foldersOf, mailboxesInScope, type FolderRow } from '../repo';
import { folderRoles, virtualRoles, type FolderRole } from '../schemas';
import { canDeletePermanently } from '../providers';
import { folderCounts, type FolderCountRow } from './repo';
import type { FolderOutput } from './schemas';

interface Counts {
  total: number;
  unread: number;
}

const zero = (): Counts => ({ total: 0, unread: 0 });
const countKey = (mailboxId: string, key: string) => `${mailboxId}\n${key}`;
const hiddenFromAll: ReadonlySet<string> = new Set(['trash', 'spam']);

function add(into: Counts, counts: Counts | undefined): void {
  if (!counts) return;
  into.total += counts.total;
  into.unread += counts.unread;
}

function folderOutput(key: string, role: FolderRole | null, folder: FolderRow | undefined, counts: Counts): FolderOutput {
  return {
    key,
    role,
    label: folder?.label ?? null,
    name: folder?.name ?? null,
    parentKey: role ? null : (folder?.parentKey ?? null),
    color: folder?.color ?? null,
    depth: role ? 0 : (folder?.depth ?? 0),
    unreadCount: counts.unread,
    totalCount: counts.total,
  };
}

/** Counts of a virtual role: every message outside trash and spam (`starred`: flagged ones only). */
function virtualCounts(role: FolderRole, rows: FolderCountRow[], hiddenKeys: Set<string>): Counts {
  const counts = zero();
  for (const row of rows) {
    if (hiddenKeys.has(countKey(row.mailboxId, row.folderKey))) continue;
    add(counts, role === 'starred' ? { total: row.flagged, unread: row.flaggedUnread } : row);
  }
  return counts;
}

export async function listFolders(actor: AuthenticatedActor, input: { mailboxId?: string }) {
  const mailboxes = await mailboxesInScope(actor.member.id, input.mailboxId);
  const ids = mailboxes.map((mailbox) => mailbox.id);
  const [folders, counts] = ids.length ? await Promise.all([foldersOf(ids), folderCounts(ids)]) : [[], { byFolder: [], byLabel: [] }];
  const countsOf = new Map<string, Counts>();
  for (const row of [...counts.byFolder, ...counts.byLabel]) {
    const into = countsOf.get(countKey(row.mailboxId, row.folderKey)) ?? zero();
    add(into, row);
    countsOf.set(countKey(row.mailboxId, row.folderKey), into);
  }
  const hiddenKeys = new Set(folders.filter((folder) => hiddenFromAll.has(folder.role ?? '')).map((folder) => countKey(folder.mailboxId, folder.key)));
  const single = Boolean(input.mailboxId);

  const system = folderRoles.map((role) => {
    if (virtualRoles.has(role)) return folderOutput(role, role, undefined, virtualCounts(role, counts.byFolder, hiddenKeys));
    const withRole = folders.filter((folder) => folder.role === role);
    const total = zero();
    for (const folder of withRole) add(total, countsOf.get(countKey(folder.mailboxId, folder.key)));
    const first = withRole[0];
    return folderOutput(single && first ? first.key : role, role, first, total);
  });

  const personal = new Map<string, { folder: FolderRow; counts: Counts }>();
  for (const folder of folders) {
    if (folder.role !== null && (folderRoles as readonly string[]).includes(folder.role)) continue;
    const entry = personal.get(folder.key) ?? { folder, counts: zero() };
    add(entry.counts, countsOf.get(countKey(folder.mailboxId, folder.key)));
    personal.set(folder.key, entry);
  }
  const personalFolders = [...personal.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, { folder, counts: folderCountsOf }]) => folderOutput(key, null, folder, folderCountsOf));

  return {
    folders: [...system, ...personalFolders],
    capabilities: { permanentDelete: mailboxes.length > 0 && mailboxes.every((mailbox) => canDeletePermanently(mailbox.provider)) },
  };
}
