/**
 * The statement of the messages list, most recent first by (received_at, id), keyset-paginated: one
 * branch per mailbox along the index (mailbox_id, received_at desc, id desc), merged by an outer
 * ORDER BY (see threads/list-statement.ts for why, and for the three steps of a search).
 */
import type { CursorPosition } from '../../../core/http/cursor';
import { searchConditionSql, searchTuning, usesSearchIndex, type PreparedSearch, type SearchTuning } from '../search/sql';
import { SqlParams, type Statement } from '../sql';

export interface MessageListSpec {
  mailboxIds: string[];
  search: PreparedSearch | null;
  after: CursorPosition | null;
  take: number;
  /** Thresholds of the search steps (default `searchTuning`). */
  tuning?: SearchTuning;
}

export const messageSummaryColumns = `m.id, m.mailbox_id, m.from_name, m.from_email, m.subject, m.snippet, m.received_at, m.folder_key,
  m.labels, m.seen, m.flagged, m.draft, m.sent, m.is_auto_reply, m.is_no_reply, m.is_mailing_list, m.is_from_self,
  m.is_bulk, m.is_delivery_report, m.is_calendar, m.has_attachments`;

export function messageListStatement(spec: MessageListSpec): Statement {
  if (spec.mailboxIds.length === 0) throw new Error('messageListStatement needs at least one mailbox');
  const params = new SqlParams();
  const take = params.add(spec.take, 'int');
  const after = spec.after ? `(m.received_at, m.id) < (${params.add(spec.after.at, 'timestamptz')}, ${params.add(spec.after.id, 'uuid')})` : null;
  const search = spec.search ? searchConditionSql(spec.search, params) : null;
  const indexed = search !== null && usesSearchIndex(spec.search);
  const cap = indexed ? params.add((spec.tuning ?? searchTuning).fewMatches + 1, 'int') : '';
  const walkRows = indexed ? params.add((spec.tuning ?? searchTuning).walkedFirst, 'int') : '';
  const ctes: string[] = [];
  const selects = spec.mailboxIds.flatMap((mailboxId, index) => {
    const mailbox = params.add(mailboxId, 'uuid');
    const conditions = [...(after ? [after] : []), ...(search ? [search] : [])];
    const select = (extra: string[]) => `(SELECT ${messageSummaryColumns} FROM mail_messages m WHERE ${[...extra, ...conditions].join(' AND ')}
      ORDER BY m.received_at DESC, m.id DESC LIMIT ${take})`;
    if (!indexed) return [select([`m.mailbox_id = ${mailbox}`])];
    const walk = `walk_${index}`;
    const hits = `hits_${index}`;
    ctes.push(
      `${walk} AS MATERIALIZED (SELECT * FROM (SELECT ${messageSummaryColumns}, m.search FROM mail_messages m
         WHERE m.mailbox_id = ${mailbox}${after ? ` AND ${after}` : ''} ORDER BY m.received_at DESC, m.id DESC LIMIT ${walkRows}) m
       WHERE ${search} ORDER BY m.received_at DESC, m.id DESC LIMIT ${take})`,
      // The mailbox compared as text: its btree index must not look cheaper than the search index here.
      `${hits} AS MATERIALIZED (SELECT m.id FROM mail_messages m WHERE m.mailbox_id::text = ${mailbox}::text AND ${conditions.join(' AND ')} LIMIT ${cap})`,
    );
    // CASE, not AND: the hits are counted (and collected) only when the walk fell short.
    const walked = `(SELECT count(*) FROM ${walk}) >= ${take}`;
    const few = `CASE WHEN ${walked} THEN false ELSE (SELECT count(*) FROM ${hits}) < ${cap} END`;
    const many = `CASE WHEN ${walked} THEN false ELSE (SELECT count(*) FROM ${hits}) >= ${cap} END`;
    return [
      `(SELECT ${messageSummaryColumns} FROM ${walk} m WHERE ${walked})`,
      select([few, `m.id IN (SELECT id FROM ${hits})`]),
      select([many, `m.mailbox_id = ${mailbox}`]),
    ];
  });
  const withClause = ctes.length ? `WITH ${ctes.join(',\n')}\n` : '';
  if (selects.length === 1) return { text: `${withClause}${selects[0].slice(1, -1)}`, values: params.values };
  return {
    text: `${withClause}SELECT * FROM (${selects.join('\nUNION ALL\n')}) m ORDER BY m.received_at DESC, m.id DESC LIMIT ${take}`,
    values: params.values,
  };
}
