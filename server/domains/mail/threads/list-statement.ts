/**
 * The statement of the threads list, newest first by (last_message_at, id), keyset-paginated.
 *
 * One branch per mailbox, each along the index (mailbox_id, last_message_at desc, id desc) with its
 * own folder keys (`folder_keys && keys`, GIN-indexed, for a sparse folder) and its own LIMIT, merged
 * by an outer ORDER BY: a member's few mailboxes never turn the list into a sort of all their threads.
 *
 * With `q`, a thread is listed when one of its messages in the folder matches. Which way is fast
 * depends on how many messages match, which PostgreSQL cannot estimate for prefix queries (see
 * `fewMatches`), so each branch decides as it goes, in three steps gated by one-time filters (a
 * step whose gate is false never runs, nor its CTE):
 *   1. `walk`: the newest `walkedFirst` threads of the folder, probing each one's messages (EXISTS
 *      along thread_id). A full page there is the answer: common words end here, cheaply.
 *   2. `hits`: at most `fewMatches + 1` matching messages through the search index. Fewer than
 *      that: they are all, and the page is their threads, sorted. Rare words end here.
 *   3. otherwise matches are many but old: the walk goes on over every thread of the folder.
 * `draft` and `sent` of the thread's flags are read for the page only.
 */
import type { CursorPosition } from '../../../core/http/cursor';
import { searchConditionSql, searchTuning, usesSearchIndex, type PreparedSearch, type SearchTuning } from '../search/sql';
import { SqlParams, type Statement } from '../sql';

export type ThreadFilter = 'all' | 'unread' | 'flagged' | 'attachments';

export interface ThreadScope {
  mailboxId: string;
  /** Folder keys a thread must have a message in; null: every folder (trash and spam included). */
  folderKeys: string[] | null;
}

export interface ThreadListSpec {
  scopes: ThreadScope[];
  /** The virtual `starred` folder: flagged threads only. */
  flaggedOnly: boolean;
  filter: ThreadFilter;
  search: PreparedSearch | null;
  after: CursorPosition | null;
  /** Rows to fetch (the page size plus one, to know whether a next page exists). */
  take: number;
  /** Thresholds of the search steps (default `searchTuning`). */
  tuning?: SearchTuning;
}

export const threadColumns = `t.id, t.mailbox_id, t.subject, t.last_message_at, t.message_count, t.unread_count, t.flagged,
  t.has_attachments, t.participants, t.participant_count, t.snippet, t.classification`;

const filterSql: Record<ThreadFilter, string | null> = {
  all: null,
  unread: 't.unread_count > 0',
  flagged: 't.flagged',
  attachments: 't.has_attachments',
};

interface Branch {
  ctes: string[];
  selects: string[];
}

function branchOf(index: number, scope: ThreadScope, spec: ThreadListSpec, params: SqlParams, take: string): Branch {
  const mailbox = params.add(scope.mailboxId, 'uuid');
  const keys = scope.folderKeys ? params.add(scope.folderKeys, 'text[]') : null;
  const conditions = [`t.mailbox_id = ${mailbox}`, 't.message_count > 0'];
  if (keys) conditions.push(`t.folder_keys && ${keys}`);
  if (spec.flaggedOnly) conditions.push('t.flagged');
  const filter = filterSql[spec.filter];
  if (filter) conditions.push(filter);
  const at = spec.after ? params.add(spec.after.at, 'timestamptz') : null;
  if (spec.after) conditions.push(`(t.last_message_at, t.id) < (${at}, ${params.add(spec.after.id, 'uuid')})`);
  const select = (extra: string[]) => `(SELECT ${threadColumns} FROM mail_threads t WHERE ${[...extra, ...conditions].join(' AND ')}
    ORDER BY t.last_message_at DESC, t.id DESC LIMIT ${take})`;

  const search = spec.search ? searchConditionSql(spec.search, params) : null;
  if (!search) return { ctes: [], selects: [select([])] };
  const inFolder = keys ? ` AND (m.folder_key = ANY(${keys}) OR m.labels && ${keys})` : '';
  // A scalar subquery rather than EXISTS: PostgreSQL keeps it a probe per thread (along thread_id)
  // instead of turning it into a join over every matching message.
  const probe = `(SELECT true FROM mail_messages m WHERE m.thread_id = t.id${inFolder} AND ${search} LIMIT 1)`;
  if (!usesSearchIndex(spec.search)) return { ctes: [], selects: [select([probe])] };

  const walk = `walk_${index}`;
  const hits = `hits_${index}`;
  const walkRows = params.add((spec.tuning ?? searchTuning).walkedFirst, 'int');
  const cap = params.add((spec.tuning ?? searchTuning).fewMatches + 1, 'int');
  // A message of a thread older than the cursor is older than it too: later pages collect fewer.
  const older = at ? ` AND m.received_at <= ${at}` : '';
  // CASE, not AND: the hits are counted (and collected) only when the walk fell short.
  const walked = `(SELECT count(*) FROM ${walk}) >= ${take}`;
  const few = `CASE WHEN ${walked} THEN false ELSE (SELECT count(*) FROM ${hits}) < ${cap} END`;
  const many = `CASE WHEN ${walked} THEN false ELSE (SELECT count(*) FROM ${hits}) >= ${cap} END`;
  return {
    ctes: [
      `${walk} AS MATERIALIZED (SELECT * FROM (SELECT ${threadColumns} FROM mail_threads t WHERE ${conditions.join(' AND ')}
         ORDER BY t.last_message_at DESC, t.id DESC LIMIT ${walkRows}) t WHERE ${probe} ORDER BY t.last_message_at DESC, t.id DESC LIMIT ${take})`,
      // The mailbox compared as text: its btree index must not look cheaper than the search index here.
      `${hits} AS MATERIALIZED (SELECT m.thread_id FROM mail_messages m
         WHERE m.mailbox_id::text = ${mailbox}::text${inFolder}${older} AND ${search} LIMIT ${cap})`,
    ],
    selects: [
      `(SELECT * FROM ${walk} t WHERE ${walked})`,
      select([few, `t.id IN (SELECT thread_id FROM ${hits})`]),
      select([many, probe]),
    ],
  };
}

export function threadListStatement(spec: ThreadListSpec): Statement {
  if (spec.scopes.length === 0) throw new Error('threadListStatement needs at least one mailbox');
  const params = new SqlParams();
  const take = params.add(spec.take, 'int');
  const branches = spec.scopes.map((scope, index) => branchOf(index, scope, spec, params, take));
  const ctes = branches.flatMap((branch) => branch.ctes);
  const text = `${ctes.length ? `WITH ${ctes.join(',\n')}\n` : ''}SELECT t.*, f.draft, f.sent
    FROM (${branches.flatMap((branch) => branch.selects).join('\nUNION ALL\n')}) t
    CROSS JOIN LATERAL (SELECT coalesce(bool_or(m.draft), false) AS draft, coalesce(bool_or(m.sent), false) AS sent
                          FROM mail_messages m WHERE m.thread_id = t.id) f
    ORDER BY t.last_message_at DESC, t.id DESC LIMIT ${take}`;
  return { text, values: params.values };
}
