/**
 * The mirror writer: the `MirrorSink` every provider adapter hands its batches to. One batch is one
 * transaction holding its new messages (ingested outside the transaction), their attachments and
 * blobs, thread assignments, flag changes, removals, the folder cursors that cover them, the
 * mailbox's message count and the live event, so a process killed at any point leaves either the
 * whole batch or none of it, and the next run resumes from the cursor with no gap and no duplicate.
 * The unique (mailbox_id, provider_key) with ON CONFLICT DO NOTHING is the last guard.
 *
 * Messages with a pending webmail operation (mail_operations) keep their mirror flags and folder: the
 * member's action shows at once and the runner applies it to the server; the sync never undoes it.
 */
import { db, pool, type Tx } from '../../core/db';
import { log } from '../../core/log';
import { emitToMember, realtimeNotification, type RealtimeEvents } from '../../core/realtime/emit';
import { blobKeys, blobStore } from '../../core/storage/blob-store';
import type { BodyBatch, FlagUpdate, FolderCursor, MirrorBatch, MirrorSink } from '../provider';
import { createdThreadsCte, planMessageThreads, recomputeThreadPreviews, recomputeThreads, threadLookupColumnsSql, threadLookupParams, threadLookupsOf, threadSourceColumns } from '../threads/attach';
import { markDraftsGone } from '../send/drafts';
import { queueFilledReplies, queueForDispatch } from './dispatch-queue';
import { inPgTransaction, type RawSql } from './pg-transaction';
import { prepareMessage, type MessageRow, type PreparedMessage } from './rows';

export interface MirrorMailbox {
  id: string;
  memberId: string;
  address: string;
  syncMode: 'full' | 'processing_only';
  /**
   * The runner's lease owner when a runner's mailbox worker syncs (../lease.ts): each batch is written only while
   * the mailbox's lease is still this owner's (\`MailboxLeaseLost\` otherwise). Absent: not fenced (tests that
   * drive a session alone).
   */
  leaseOwner?: string;
}

/**
 * The mailbox's lease is no longer the writer's (released while a batch was on its way, or taken over after a
 * stall): the batch is not written. Not a sync failure: the lease's holder syncs the mailbox.
 */
export class MailboxLeaseLost extends Error {
  constructor(readonly mailboxId: string) {
    super(`The lease of mailbox ${mailboxId} is no longer this runner's.`);
  }
}

type Sql = RawSql;

/** Longest a batch transaction may take (a batch of large messages with attachments). */
const transactionTimeoutMs = 120_000;
/** Thread ids named in one live event (the browser re-reads what changed anyway). */
const eventThreadIds = 50;

export interface CommitResult {
  inserted: number;
  updated: number;
  removed: number;
  threadIds: Set<string>;
}

export interface MirrorSinkWithTotals extends MirrorSink {
  /** What the batches committed so far changed. */
  totals: { inserted: number; updated: number; removed: number };
}

export interface StatisticsRefresh {
  /** Messages a sink writes before it first refreshes the planner's statistics; then each time it wrote `statisticsRefreshGrowth` times as many. */
  firstAt: number;
  refresh: () => Promise<void>;
}

/** The longest a statistics refresh waits for the table (ms): past an autovacuum's `deadlock_timeout`, not a long VACUUM. */
const statisticsLockWaitMs = 3_000;

/**
 * Refreshes the planner's statistics of `mail_messages.mailbox_id` (about 30 ms: one column of a
 * sample). A mailbox mirrored since the table's last ANALYZE is unknown to them, so the planner
 * takes it for a row or two and may read a mailbox-scoped statement through any index that starts
 * with the mailbox (the batch's thread look-ups read the whole mailbox for each id that way), and
 * autovacuum analyses only once a tenth of the table changed: a new mailbox in a large instance may
 * wait for ever.
 *
 * It waits for an ANALYZE or VACUUM already on the table for at most `statisticsLockWaitMs`: a waiting
 * ANALYZE makes an autovacuum give way after `deadlock_timeout` (1 s), so the refresh then runs. It
 * used to skip instead (SKIP_LOCKED), and the batches after it were planned without their mailbox
 * whenever autovacuum was analysing the table the sync was filling (a test read 18 million rows for
 * one batch's look-ups). Past the wait, or on any failure, the estimates are left as they were.
 */
export async function refreshMailboxStatistics(): Promise<void> {
  try {
    // One simple query: PostgreSQL runs it as one implicit transaction, so the setting ends with it, failed or not.
    await pool().query(`SELECT set_config('lock_timeout', '${statisticsLockWaitMs}', true); ANALYZE mail_messages (mailbox_id)`);
  } catch (err) {
    log.warn({ err }, 'the statistics of mail_messages could not be refreshed');
  }
}

/**
 * After one full batch: until then the planner takes the new mailbox for a row or two and may pick the wrong
 * mailbox-prefixed index, which costs each batch a read of the mailbox per id; the refreshes cost about 30 ms
 * each (a sample), and a sync of n messages makes log4(n / 200) of them.
 */
const defaultStatisticsRefresh: StatisticsRefresh = { firstAt: 200, refresh: refreshMailboxStatistics };

/**
 * How much more a sink writes before its next refresh. Once the planner knows the mailbox at all, every statement
 * a sync or a list makes names the mailbox and an indexed column beside it, and an estimate off by four picks the
 * same index as an exact one; each refresh reads a sample of up to 30,000 rows of the whole table (40-95 ms of
 * PostgreSQL's CPU in a 10,000-message listing, beside the writer on a 2-core machine), so at each doubling a
 * listing of 10,000 made four of them, now two.
 */
export const statisticsRefreshGrowth = 4;

export function createMirrorSink(mailbox: MirrorMailbox, statistics: StatisticsRefresh = defaultStatisticsRefresh): MirrorSinkWithTotals {
  // Writes happen one after the other, in the order batches were handed over; a failed write stops
  // every later one (its promise rejects with the same error).
  let tail: Promise<unknown> = Promise.resolve();
  /** Ingests at once (batches handed over together parse while earlier ones are written), writes after every earlier write. */
  const inOrder = <Prepared, Result>(prepare: () => Promise<Prepared>, write: (prepared: Prepared) => Promise<Result>): Promise<Result> => {
    const previous = tail;
    const written = (async () => {
      const prepared = await prepare();
      await previous;
      return write(prepared);
    })();
    tail = written;
    // The caller awaits `written`; this copy only keeps an unawaited failure from being reported twice.
    written.catch(() => {});
    return written;
  };
  const totals = { inserted: 0, updated: 0, removed: 0 };
  let refreshStatisticsAt = statistics.firstAt;
  /** A later refresh still running (they never fail: a failure leaves the estimates as they were). */
  let refreshing: Promise<void> | null = null;
  /**
   * The first refresh is awaited: until it the planner takes the mailbox for a row or two. The later ones only
   * bring figures that are off by at most `statisticsRefreshGrowth` up to date, and ANALYZE takes no lock an INSERT
   * waits for, so they run beside the next batches (on a connection of their own) instead of before them:
   * on a 10,000-message listing they were 4 × 40 ms of the writer's critical path.
   */
  const refreshStatistics = async (first: boolean) => {
    if (first) return statistics.refresh();
    if (refreshing) return;
    refreshing = statistics.refresh().finally(() => (refreshing = null));
  };
  return {
    totals,
    commit(batch) {
      return inOrder(
        () => prepareBatch(mailbox, batch),
        async (prepared) => {
          const result = await writePrepared(mailbox, batch, prepared);
          totals.inserted += result.inserted;
          totals.updated += result.updated;
          totals.removed += result.removed;
          // The first before the next batch is written, so that its statements are planned on the mailbox's figures.
          if (totals.inserted >= refreshStatisticsAt) {
            const first = refreshStatisticsAt === statistics.firstAt;
            while (refreshStatisticsAt <= totals.inserted) refreshStatisticsAt *= statisticsRefreshGrowth;
            await refreshStatistics(first);
          }
          return { inserted: result.inserted };
        },
      );
    },
    async resetFolder(folderKey, uidValidity) {
      await tail.catch(() => {});
      await resetFolder(mailbox, folderKey, uidValidity);
    },
    async mirroredKeys(prefix) {
      await tail.catch(() => {});
      const rows = await db().$queryRawUnsafe<{ provider_key: string }[]>(
        `SELECT provider_key FROM mail_messages WHERE mailbox_id = $1::uuid AND left(provider_key, length($2)) = $2`,
        mailbox.id,
        prefix,
      );
      return rows.map((row) => row.provider_key);
    },
    async known(providerKeys) {
      await tail.catch(() => {});
      return knownProviderKeys(mailbox.id, providerKeys);
    },
    fillBodies(batch) {
      return inOrder(
        () => prepareBodies(mailbox, batch),
        async (prepared) => ({
          filled: await inPgTransaction((sql) => writeBodies(sql, mailbox, prepared, batch.missing), { timeoutMs: transactionTimeoutMs, commitsWaitForWal: false }),
        }),
      );
    },
  };
}

/**
 * Parsing holds the event loop for this long at most before it lets other work in: most messages
 * parse without a stream (../ingest/fast-mime.ts), so a batch would otherwise be parsed in one go,
 * and the earlier batch's statements, waiting on the loop for their answers, with it. A batch's
 * transaction is some eight round trips, each answer waiting for the slice running when it came:
 * with 4 ms slices up to 30 ms a transaction, on the writer that a listing of headers waits for.
 */
const parseSliceMs = 1;

async function prepareBatch(mailbox: MirrorMailbox, batch: MirrorBatch): Promise<PreparedMessage[]> {
  const unique = new Map(batch.messages.map((message) => [message.providerKey, message]));
  return prepareInSlices([...unique.values()], (message) => prepareMessage(mailbox, message, batch.ingestedVia));
}

/** The body pass's sources ingested as the rows they fill (each keeps the id of its row). */
function prepareBodies(mailbox: MirrorMailbox, batch: BodyBatch): Promise<PreparedMessage[]> {
  return prepareInSlices(batch.messages, ({ messageId, incoming }) => prepareMessage(mailbox, { ...incoming, bodyDeferred: false }, 'initial', messageId));
}

/** Ingests one message after the other, giving the event loop back every `parseSliceMs`. */
async function prepareInSlices<T>(items: readonly T[], prepare: (item: T) => Promise<PreparedMessage>): Promise<PreparedMessage[]> {
  const prepared: PreparedMessage[] = [];
  let sliceStart = performance.now();
  for (const item of items) {
    prepared.push(await prepare(item));
    if (performance.now() - sliceStart > parseSliceMs) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
  return prepared;
}

/**
 * Fills rows listed from their header with what only the whole source gives: the body, snippet, the signals read
 * from the raw header lines and the parts, the list's id and unsubscribe, the attachments; their threads' snippets
 * and attachment marks follow, and a filled reply some run waits for is queued to wake it (./dispatch-queue.ts). A row filled meanwhile (read on demand and filled by an earlier pass) or removed is
 * left alone; `missing` rows (the provider no longer has the message) stop being pending, for the delta's expunge
 * to remove. Returns the rows filled.
 */
async function writeBodies(tx: Sql, mailbox: MirrorMailbox, prepared: PreparedMessage[], missing: string[]): Promise<number> {
  await holdMailboxLease(tx, mailbox);
  let filled: { id: string; thread_id: string | null }[] = [];
  if (prepared.length > 0) {
    const { meta, bodies, bodyJoin } = splitBodies(prepared, 3);
    filled = await tx.$queryRawUnsafe<{ id: string; thread_id: string | null }[]>(
      `UPDATE mail_messages m SET
          snippet = r.snippet, body_text = b.body_text, body_html = b.body_html, body_complete = r.body_complete, body_pending = false,
          has_attachments = r.has_attachments, is_auto_reply = r.is_auto_reply, is_no_reply = r.is_no_reply, is_mailing_list = r.is_mailing_list,
          is_bulk = r.is_bulk, is_delivery_report = r.is_delivery_report, is_calendar = r.is_calendar,
          list_id = r.list_id, list_unsubscribe = r.list_unsubscribe, updated_at = now()
         FROM json_populate_recordset(null::mail_messages, $2::json) WITH ORDINALITY AS r
         ${bodyJoin}
        WHERE m.id = r.id AND m.mailbox_id = $1::uuid AND m.body_pending
       RETURNING m.id, m.thread_id`,
      mailbox.id,
      JSON.stringify(meta),
      ...bodies,
    );
    const filledIds = new Set(filled.map((row) => row.id));
    await insertAttachments(tx, prepared.filter((message) => filledIds.has(message.id)));
    await queueFilledReplies(tx, mailbox.id, [...filledIds]);
  }
  if (missing.length > 0) {
    await tx.$executeRawUnsafe(`UPDATE mail_messages SET body_pending = false WHERE mailbox_id = $1::uuid AND id = ANY($2::uuid[]) AND body_pending`, mailbox.id, missing);
  }
  const threadIds = [...new Set(filled.map((row) => row.thread_id).filter((id): id is string => id !== null))];
  await recomputeThreadPreviews(tx, threadIds);
  if (filled.length > 0) await announce(tx, mailbox, 'bodies', threadIds);
  return filled.length;
}

/**
 * The fence, first statement of every transaction that writes a mailbox's mirror (a batch, a folder reset, the
 * folder list, a webmail operation's outcome): the lease row is held (FOR SHARE) until the transaction commits, so a release or a take-over waits
 * for it, and a transaction whose lease went meanwhile writes nothing (MailboxLeaseLost). One runner writes a
 * mailbox at a time. A mailbox written outside a runner's lease (no `leaseOwner`) is not fenced.
 */
export async function holdMailboxLease(tx: Pick<Sql, '$queryRawUnsafe'>, mailbox: Pick<MirrorMailbox, 'id' | 'leaseOwner'>): Promise<void> {
  if (mailbox.leaseOwner === undefined) return;
  const held = await tx.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM mailboxes WHERE id = $1::uuid AND lease_owner = $2 FOR SHARE`, mailbox.id, mailbox.leaseOwner);
  if (held.length === 0) throw new MailboxLeaseLost(mailbox.id);
}

/**
 * A batch of the initial window starts nothing (only new mail goes to the triggers) and its cursor commits with it,
 * so a database crash that takes its commit back leaves the mailbox as before it, read again by the next sync: its
 * commit need not wait for the WAL flush, which a listing of headers waited for ten times (a few ms each, up to 25).
 * The body pass's fills likewise: a fill taken back leaves its rows pending, and the pass fills them again.
 */
function readAgainIfLost(batch: MirrorBatch): boolean {
  return batch.ingestedVia === 'initial';
}

/** Writes a batch already ingested (`prepareMessage` for each of its messages) in one transaction; exported for the sync bench's measure of the writer alone. */
export function writePrepared(mailbox: MirrorMailbox, batch: MirrorBatch, prepared: PreparedMessage[]): Promise<CommitResult> {
  return inPgTransaction((sql) => writeBatch(sql, mailbox, batch, prepared), { timeoutMs: transactionTimeoutMs, commitsWaitForWal: !readAgainIfLost(batch) });
}

/** Ingests the batch's messages, then writes everything in one transaction. */
export async function commitBatch(mailbox: MirrorMailbox, batch: MirrorBatch): Promise<CommitResult> {
  return writePrepared(mailbox, batch, await prepareBatch(mailbox, batch));
}

async function writeBatch(tx: Sql, mailbox: MirrorMailbox, batch: MirrorBatch, prepared: PreparedMessage[]): Promise<CommitResult> {
  await holdMailboxLease(tx, mailbox);
  // Existing threads whose messages change (recomputed below); the threads the batch opens are written whole by the insert.
  const touched = new Set<string>();
  let inserted = 0;
  let opened = new Set<string>();
  if (prepared.length > 0) ({ inserted, opened } = await insertMessages(tx, mailbox, prepared, touched));
  const updated = batch.flagUpdates.length > 0 ? await applyFlagUpdates(tx, mailbox.id, batch.flagUpdates, touched) : 0;
  const removed = batch.removedProviderKeys.length > 0 ? await removeMessages(tx, mailbox.id, batch.removedProviderKeys, touched) : 0;
  // A draft placed for review that left the Drafts folder: the member deleted or sent it themselves.
  if (batch.removedProviderKeys.length > 0) await markDraftsGone(tx, mailbox.id, batch.removedProviderKeys);
  await writeCursors(tx, mailbox.id, batch.cursors);
  // Only a removal leaves a thread empty: a merge deletes what it empties itself, and a thread the
  // batch opens is written only with the messages actually inserted.
  const deletedThreads = await recomputeThreads(tx, touched, { mayEmpty: removed > 0 });
  const threadIds = new Set([...touched, ...opened]);
  const reasons: RealtimeEvents['mail.changed']['reason'][] = [];
  if (inserted > 0) reasons.push(batch.ingestedVia === 'resync' ? 'resync' : 'new');
  if (updated > 0) reasons.push('flags');
  if (removed > 0) reasons.push('expunged');
  await countAndAnnounce(tx, mailbox, inserted - removed, reasons, [...threadIds, ...deletedThreads]);
  return { inserted, updated, removed, threadIds };
}

async function announce(tx: Sql, mailbox: MirrorMailbox, reason: RealtimeEvents['mail.changed']['reason'], threadIds: string[]): Promise<void> {
  await emitToMember(mailbox.memberId, 'mail.changed', { mailboxId: mailbox.id, threadIds: threadIds.slice(0, eventThreadIds), reason }, tx);
}

/** The mailbox's message count moved by `delta` and one `mail.changed` event per reason, in one statement (nothing when neither). */
async function countAndAnnounce(tx: Sql, mailbox: MirrorMailbox, delta: number, reasons: RealtimeEvents['mail.changed']['reason'][], threadIds: string[]): Promise<void> {
  if (delta === 0 && reasons.length === 0) return;
  const events = reasons.map((reason) => realtimeNotification(mailbox.memberId, 'mail.changed', { mailboxId: mailbox.id, threadIds: threadIds.slice(0, eventThreadIds), reason }));
  await tx.$queryRawUnsafe(
    `WITH counted AS (
       UPDATE mailboxes SET message_count = greatest(0, message_count + $2::int), updated_at = now() WHERE id = $1::uuid AND $2::int <> 0
     )
     SELECT pg_notify(event.channel, event.body) FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS event(channel, body, position) ORDER BY event.position`,
    mailbox.id,
    delta,
    events.map((event) => event.channel),
    events.map((event) => event.body),
  );
}

/**
 * Inserts the batch's messages the mirror lacks, with the threads they open; adds the existing threads
 * they join to `touched` and returns the threads opened.
 */
async function insertMessages(tx: Sql, mailbox: MirrorMailbox, prepared: PreparedMessage[], touched: Set<string>): Promise<{ inserted: number; opened: Set<string> }> {
  // One round trip: which of the batch's messages the mirror holds already (a batch read again after
  // a crash) and what the batch's messages may thread with. Each key is looked up alone: a mailbox
  // being synced has no statistics yet, and one `= ANY` test was planned as a read of the whole mailbox.
  const [lookup] = await tx.$queryRawUnsafe<(Parameters<typeof threadLookupsOf>[0] & { existing: string[] })[]>(
    `SELECT ARRAY(SELECT held.provider_key FROM unnest($6::text[]) AS batch(key)
                   CROSS JOIN LATERAL (SELECT provider_key FROM mail_messages WHERE mailbox_id = $1::uuid AND provider_key = batch.key) held) AS existing,
            ${threadLookupColumnsSql}`,
    mailbox.id,
    ...threadLookupParams(prepared),
    prepared.map((message) => message.row.provider_key),
  );
  const existing = new Set(lookup!.existing);
  const fresh = prepared.filter((message) => !existing.has(message.row.provider_key));
  if (fresh.length === 0) return { inserted: 0, opened: new Set() };
  // The lookups were read for the whole batch; with some of it mirrored already they are read again
  // for the rest, so a thread is planned exactly as for those messages alone.
  const lookups = fresh.length === prepared.length ? threadLookupsOf(lookup!) : undefined;
  const { threadOf, touched: joined, created } = await planMessageThreads(tx, mailbox.id, fresh, lookups);
  for (const message of fresh) message.row.thread_id = threadOf.get(message.id) ?? null;
  const { meta, bodies, bodyJoin } = splitBodies(fresh, 2);
  const threadParams = bodies.length + 2;
  const insertedRows = await tx.$queryRawUnsafe<{ id: string; ingested_via: string; thread_id: string | null }[]>(
    `WITH inserted AS (
       INSERT INTO mail_messages (id, mailbox_id, thread_id, provider_key, folder_key, labels, uid, uid_validity, modseq,
          message_id_header, in_reply_to, "references", subject, snippet, from_name, from_email, recipients, date_header,
          received_at, seen, flagged, draft, sent, is_auto_reply, is_no_reply, is_mailing_list, list_id, list_unsubscribe, is_from_self,
          is_bulk, is_delivery_report, is_calendar, has_attachments, size, body_text, body_html, body_complete, body_pending, ingested_via, updated_at)
       SELECT r.id, r.mailbox_id, r.thread_id, r.provider_key, r.folder_key, coalesce(r.labels, ARRAY[]::text[]), r.uid, r.uid_validity, r.modseq,
          r.message_id_header, r.in_reply_to, coalesce(r."references", ARRAY[]::text[]), r.subject, r.snippet, r.from_name, r.from_email,
          coalesce(r.recipients, '{}'::jsonb), r.date_header, r.received_at, r.seen, r.flagged, r.draft, r.sent, r.is_auto_reply, r.is_no_reply,
          r.is_mailing_list, r.list_id, r.list_unsubscribe, r.is_from_self, r.is_bulk, r.is_delivery_report, r.is_calendar, r.has_attachments,
          r.size, b.body_text, b.body_html, r.body_complete, r.body_pending, r.ingested_via, now()
         FROM json_populate_recordset(null::mail_messages, $1::json) WITH ORDINALITY AS r
         ${bodyJoin}
       ON CONFLICT (mailbox_id, provider_key) DO NOTHING
       RETURNING ingested_via, ${threadSourceColumns}
     )${created.length > 0 ? `, opened AS (${createdThreadsCte('inserted', `$${threadParams}`, `$${threadParams + 1}`, `$${threadParams + 2}`)})` : ''}
     SELECT id, ingested_via, thread_id FROM inserted`,
    JSON.stringify(meta),
    ...bodies,
    ...(created.length > 0 ? [mailbox.id, created.map((thread) => thread.threadId), created.map((thread) => thread.subjectKey)] : []),
  );
  const insertedIds = new Set(insertedRows.map((row) => row.id));
  const newMail = new Set(insertedRows.filter((row) => row.ingested_via === 'delta').map((row) => row.id));
  // New mail (and only new mail) goes to the workflow triggers, in this same transaction, in the
  // order the batch lists it (the provider's arrival order), not RETURNING's.
  await queueForDispatch(
    tx,
    mailbox.id,
    fresh.map((message) => message.id).filter((id) => newMail.has(id)),
  );
  for (const threadId of joined) touched.add(threadId);
  const createdIds = new Set(created.map((thread) => thread.threadId));
  const opened = new Set(insertedRows.map((row) => row.thread_id).filter((threadId): threadId is string => threadId !== null && createdIds.has(threadId)));
  await insertAttachments(tx, fresh.filter((message) => insertedIds.has(message.id)));
  return { inserted: insertedIds.size, opened };
}

/**
 * The rows' columns but their bodies, for JSON, and the bodies (nearly all of a batch's bytes) as parameters of
 * their own from `$firstParam` on, joined by `bodyJoin` as `b(body_text, body_html)` to the row of the same
 * ordinality: PostgreSQL takes a text parameter as it comes, where inside the JSON it would read and unescape every
 * character. A batch without a body (a listing of headers) names no parameter and joins one row of nulls: its
 * thousand rows of two null parameters were planned at every batch (9.5 ms a batch against 3.1 without, PostgreSQL 15).
 */
function splitBodies(prepared: PreparedMessage[], firstParam: number): { meta: Omit<MessageRow, 'body_text' | 'body_html'>[]; bodies: (string | null)[]; bodyJoin: string } {
  const bodies: (string | null)[] = [];
  const meta = prepared.map(({ row: { body_text: text, body_html: html, ...rest } }) => {
    bodies.push(text, html);
    return rest;
  });
  if (bodies.every((body) => body === null)) return { meta, bodies: [], bodyJoin: 'CROSS JOIN (VALUES (NULL::text, NULL::text)) AS b(body_text, body_html)' };
  const rows = prepared.map((_, index) => `(${index + 1}, $${firstParam + 2 * index}::text, $${firstParam + 2 * index + 1}::text)`);
  return { meta, bodies, bodyJoin: `JOIN (VALUES ${rows.join(', ')}) AS b(n, body_text, body_html) ON b.n = r.ordinality` };
}

async function insertAttachments(tx: Sql, messages: PreparedMessage[]): Promise<void> {
  const rows: object[] = [];
  const blobs: Array<{ key: string; content: Buffer }> = [];
  for (const message of messages) {
    for (const attachment of message.attachments) {
      let blobKey: string | null = null;
      if (attachment.content) {
        blobKey = blobKeys.attachment(message.id, attachment.position);
        blobs.push({ key: blobKey, content: attachment.content });
      }
      rows.push({
        message_id: message.id,
        position: attachment.position,
        filename: attachment.filename,
        mime: attachment.mime,
        size: Math.min(attachment.size, 2_147_483_647),
        disposition: attachment.disposition,
        content_id: attachment.contentId,
        part_ref: attachment.partRef,
        blob_key: blobKey,
      });
    }
  }
  if (rows.length === 0) return;
  await blobStore().putMany(blobs, tx);
  await tx.$executeRawUnsafe(
    `INSERT INTO mail_attachments (id, message_id, position, filename, mime, size, disposition, content_id, part_ref, blob_key)
     SELECT gen_random_uuid(), message_id, position, filename, mime, size, disposition, content_id, part_ref, blob_key
       FROM json_populate_recordset(null::mail_attachments, $1::json)
     ON CONFLICT (message_id, position) DO NOTHING`,
    JSON.stringify(rows),
  );
}

async function applyFlagUpdates(tx: Sql, mailboxId: string, updates: FlagUpdate[], touched: Set<string>): Promise<number> {
  const rows = updates.map((update) => ({
    provider_key: update.providerKey,
    seen: update.flags.seen,
    flagged: update.flags.flagged,
    draft: update.flags.draft,
    labels: update.labels ?? null,
    modseq: update.modseq?.toString() ?? null,
    folder_key: update.folderKey ?? null,
  }));
  const changed = await tx.$queryRawUnsafe<{ thread_id: string | null }[]>(
    `WITH pending AS (SELECT DISTINCT message_id FROM mail_operations WHERE mailbox_id = $1::uuid AND status = 'pending')
     UPDATE mail_messages m SET
        seen = v.seen, flagged = v.flagged, draft = v.draft,
        labels = coalesce(v.labels, m.labels),
        modseq = coalesce(v.modseq, m.modseq),
        folder_key = coalesce(v.folder_key, m.folder_key),
        updated_at = now()
       FROM json_populate_recordset(null::mail_messages, $2::json) v
      WHERE m.mailbox_id = $1::uuid AND m.provider_key = v.provider_key
        AND m.id NOT IN (SELECT message_id FROM pending)
        AND (m.seen, m.flagged, m.draft, m.labels, m.folder_key)
            IS DISTINCT FROM (v.seen, v.flagged, v.draft, coalesce(v.labels, m.labels), coalesce(v.folder_key, m.folder_key))
     RETURNING m.thread_id`,
    mailboxId,
    JSON.stringify(rows),
  );
  for (const row of changed) if (row.thread_id) touched.add(row.thread_id);
  return changed.length;
}

async function removeMessages(tx: Sql, mailboxId: string, providerKeys: string[], touched: Set<string>): Promise<number> {
  const blobs = await tx.$queryRawUnsafe<{ blob_key: string }[]>(
    `SELECT a.blob_key FROM mail_attachments a JOIN mail_messages m ON m.id = a.message_id
      WHERE m.mailbox_id = $1::uuid AND m.provider_key = ANY($2::text[]) AND a.blob_key IS NOT NULL`,
    mailboxId,
    providerKeys,
  );
  const removed = await tx.$queryRawUnsafe<{ thread_id: string | null }[]>(
    `DELETE FROM mail_messages WHERE mailbox_id = $1::uuid AND provider_key = ANY($2::text[]) RETURNING thread_id`,
    mailboxId,
    providerKeys,
  );
  await blobStore().delete(
    blobs.map((row) => row.blob_key),
    tx,
  );
  for (const row of removed) if (row.thread_id) touched.add(row.thread_id);
  return removed.length;
}

async function writeCursors(tx: Sql, mailboxId: string, cursors: FolderCursor[]): Promise<void> {
  for (const cursor of cursors) {
    const sets: string[] = [];
    const values: unknown[] = [mailboxId, cursor.folderKey];
    const put = (column: string, value: bigint | string | null | undefined, type: string) => {
      if (value === undefined) return;
      values.push(value === null ? null : value.toString());
      sets.push(`${column} = $${values.length}::${type}`);
    };
    put('uid_validity', cursor.uidValidity, 'bigint');
    put('uid_next', cursor.uidNext, 'bigint');
    put('synced_uid', cursor.syncedUid, 'bigint');
    put('oldest_uid', cursor.oldestUid, 'bigint');
    put('highest_modseq', cursor.highestModseq, 'bigint');
    put('delta_token', cursor.deltaToken, 'text');
    if (sets.length === 0) continue;
    await tx.$executeRawUnsafe(`UPDATE mail_folders SET ${sets.join(', ')}, updated_at = now() WHERE mailbox_id = $1::uuid AND key = $2`, ...values);
  }
}

/** Which of these provider keys are mirrored (at most 10,000 asked at once). */
export async function knownProviderKeys(mailboxId: string, providerKeys: string[]): Promise<Set<string>> {
  const known = new Set<string>();
  for (let start = 0; start < providerKeys.length; start += 10_000) {
    const rows = await db().$queryRawUnsafe<{ provider_key: string }[]>(
      `SELECT provider_key FROM mail_messages WHERE mailbox_id = $1::uuid AND provider_key = ANY($2::text[])`,
      mailboxId,
      providerKeys.slice(start, start + 10_000),
    );
    for (const row of rows) known.add(row.provider_key);
  }
  return known;
}

/**
 * UIDVALIDITY changed: every mirrored message of the folder (by its server identity, providerKey) is
 * dropped and the cursor starts over, in one transaction; the next sync reads the folder again.
 */
export async function resetFolder(mailbox: MirrorMailbox, folderKey: string, uidValidity: bigint | null): Promise<void> {
  const prefix = `${folderKey}\n`;
  await db().$transaction(
    async (tx) => {
      await holdMailboxLease(tx, mailbox);
      const keys = (
        await tx.$queryRawUnsafe<{ provider_key: string }[]>(
          `SELECT provider_key FROM mail_messages WHERE mailbox_id = $1::uuid AND left(provider_key, length($2)) = $2`,
          mailbox.id,
          prefix,
        )
      ).map((row) => row.provider_key);
      const touched = new Set<string>();
      const removed = keys.length > 0 ? await removeMessages(tx, mailbox.id, keys, touched) : 0;
      await tx.$executeRawUnsafe(
        `UPDATE mail_folders SET uid_validity = $3::bigint, uid_next = NULL, synced_uid = NULL, oldest_uid = NULL, highest_modseq = NULL, updated_at = now()
          WHERE mailbox_id = $1::uuid AND key = $2`,
        mailbox.id,
        folderKey,
        uidValidity?.toString() ?? null,
      );
      const deleted = await recomputeThreads(tx, touched);
      if (removed > 0) {
        await tx.$executeRawUnsafe(`UPDATE mailboxes SET message_count = greatest(0, message_count - $2::int), updated_at = now() WHERE id = $1::uuid`, mailbox.id, removed);
        await announce(tx, mailbox, 'expunged', [...touched, ...deleted]);
      }
    },
    { timeout: transactionTimeoutMs, maxWait: 30_000 },
  );
}

/** Sets the mailbox's message count to the exact number of mirrored rows (after a sync run). */
export async function recountMessages(mailboxId: string, tx: Pick<Tx, '$executeRawUnsafe'> = db()): Promise<void> {
  await tx.$executeRawUnsafe(
    `UPDATE mailboxes SET message_count = (SELECT count(*) FROM mail_messages WHERE mailbox_id = $1::uuid)
      WHERE id = $1::uuid AND message_count IS DISTINCT FROM (SELECT count(*) FROM mail_messages WHERE mailbox_id = $1::uuid)`,
    mailboxId,
  );
}
