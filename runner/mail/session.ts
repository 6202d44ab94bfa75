/**
 * A mailbox's sync session in the runner that holds its lease: one provider connection kept between
 * runs, and `run(work)` doing, in this order, what was asked:
 *
 * 1. pending webmail operations (before the delta, so a MOVE interrupted by a crash is recognised
 *    from the source side before the delta could see the moved copy as new mail);
 * 2. the delta (initial sync of recent mail on the first run);
 * 3. a resync window, when one was requested (silent);
 * 4. a budget of the body pass, when a large initial window was listed from its headers (`headersFirstAbove`);
 * 5. a backfill slice budget, when a backfill is pending or running.
 *
 * Failures are classified and recorded (./mailbox-status.ts); the caller schedules the retry with the
 * backoff returned. One session runs one thing at a time (the worker serialises calls).
 */
import { config } from '../../server/core/config';
import { db } from '../../server/core/db';
import { log } from '../../server/core/log';
import { openAdapter, type AdapterMailbox } from '../../server/mail/adapters';
import { parseImapProviderKey } from '../../server/mail/imap/sync/provider-key';
import type { ImapAdapterOptions } from '../../server/mail/imap/sync/adapter';
import type { BatchLimits } from '../../server/mail/imap/sync/fetch-batches';
import { pendingBodies } from '../../server/mail/mirror/bodies';
import { loadFolderStates, reconcileFolders } from '../../server/mail/mirror/folders';
import { completeOperation, dropOperation, failOperation, pendingOperations, type OperationFence } from '../../server/mail/mirror/operations';
import { createMirrorSink, MailboxLeaseLost, recountMessages, type MirrorMailbox } from '../../server/mail/mirror/writer';
import type { MailProviderAdapter, MessageLocator, SyncContext, WatchChange, WatchOptions } from '../../server/mail/provider';
import { classifySyncError, internalFailureCause, type ClassifiedSyncError } from '../../server/mail/sync-errors';
import { backfillAllowed } from '../../server/mail/sync-mode';
import { emitToMember } from '../../server/core/realtime/emit';
import { recordFailure, recordSuccess, type SyncOperation } from './mailbox-status';

export interface WorkRequest {
  /** `inbox`: only the inbox (what an IDLE watch saw change); true: every folder. */
  delta?: boolean | 'inbox';
  operations?: boolean;
  resync?: boolean;
  /** Bodies of messages listed from their headers. */
  bodies?: boolean;
  backfill?: boolean;
}

export type RunResult =
  | { outcome: 'ok'; more: { backfill: boolean; operations: boolean; bodies: boolean } }
  | { outcome: 'failed'; failure: ClassifiedSyncError; retryInMs: number }
  | { outcome: 'gone' };

/** Whether the error, or one it was raised from, is the mirror's fence (a sync's adapter may wrap what the sink threw). */
function leaseLost(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth += 1) {
    if (cause instanceof MailboxLeaseLost) return true;
  }
  return false;
}

export interface SessionOptions {
  /** The runner's lease owner: the mirror's writes are fenced by it (server/mail/mirror/writer.ts MirrorMailbox). */
  leaseOwner?: string;
  /** Initial sync window (defaults from MAIL_INITIAL_SYNC_DAYS / MAIL_INITIAL_SYNC_MAX_PER_FOLDER). */
  initialDays?: number;
  initialMaxPerFolder?: number;
  limits?: Partial<BatchLimits>;
  /** imapflow options over the defaults (tests only). */
  imap?: ImapAdapterOptions['imap'];
  /** Backfill messages per run before handing the connection back to the delta (1,000), and the run's time (3 s, past its first batch). */
  backfillPerRun?: number;
  backfillRunMs?: number;
  /** Listing from headers first above this initial window (default MAIL_HEADERS_FIRST_ABOVE). */
  headersFirstAbove?: number;
  /** Bodies filled per run before handing the connection back to the delta (2,000), and the run's time (3 s, past its first batch). */
  bodiesPerRun?: number;
  bodiesRunMs?: number;
  /** Folder list re-read at most this often (ms); always on the first run. */
  folderListEveryMs?: number;
  /** Attempts of one webmail operation before it is marked failed. */
  operationAttempts?: number;
}

/** The time budget of a backfill run and of a run of the body pass (server/mail/provider.ts `runTimeIsUp`). */
const runTimeMs = 3_000;

type LoadedMailbox = AdapterMailbox & MirrorMailbox & { status: string; backfillStatus: string | null; backfillSince: Date | null; syncState: unknown };

async function loadMailbox(mailboxId: string): Promise<LoadedMailbox | null> {
  const row = await db().mailbox.findUnique({ where: { id: mailboxId }, include: { credential: { select: { id: true, dataEnc: true } } } });
  if (!row) return null;
  return {
    id: row.id,
    memberId: row.memberId,
    address: row.address,
    provider: row.provider,
    syncMode: row.syncMode === 'processing_only' ? 'processing_only' : 'full',
    settings: row.settings,
    credential: row.credential,
    status: row.status,
    backfillStatus: row.backfillStatus,
    backfillSince: row.backfillSince,
    syncState: row.syncState,
  };
}

function resyncSinceOf(syncState: unknown): Date | null {
  const value = syncState && typeof syncState === 'object' ? (syncState as Record<string, unknown>).resyncSince : undefined;
  if (typeof value !== 'string') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export class MailboxSession {
  private adapter: MailProviderAdapter | null = null;
  private secrets: string[] = [];
  private listedAt = 0;

  constructor(
    readonly mailboxId: string,
    private readonly options: SessionOptions = {},
  ) {}

  async run(work: WorkRequest, signal: AbortSignal): Promise<RunResult> {
    const mailbox = await loadMailbox(this.mailboxId);
    if (!mailbox || mailbox.status === 'disconnected') {
      await this.close();
      return { outcome: 'gone' };
    }
    let operation: SyncOperation = 'sync';
    try {
      const adapter = await this.connect(mailbox);
      // Every mirror write of this run (batches, folder resets, the folder list, operations applied) is fenced by this runner's lease.
      const fenced = this.options.leaseOwner === undefined ? mailbox : { ...mailbox, leaseOwner: this.options.leaseOwner };
      const folders = await this.folders(fenced, adapter, work.delta !== undefined && work.delta !== false);
      const context: SyncContext = {
        mailboxId: mailbox.id,
        address: mailbox.address,
        syncMode: mailbox.syncMode,
        folders,
        sink: createMirrorSink(fenced),
        signal,
        initialSince: new Date(Date.now() - (this.options.initialDays ?? config().MAIL_INITIAL_SYNC_DAYS) * 24 * 3600_000),
        initialMaxPerFolder: this.options.initialMaxPerFolder ?? config().MAIL_INITIAL_SYNC_MAX_PER_FOLDER,
        headersFirstAbove: this.options.headersFirstAbove ?? config().MAIL_HEADERS_FIRST_ABOVE,
      };
      let moreOperations = false;
      // Pending operations go first whatever was asked: a delta or resync must never read back what
      // the member already changed (a message they deleted, a move interrupted by a crash).
      if (work.operations || work.delta || work.resync) {
        operation = 'apply-operations';
        moreOperations = await this.applyOperations(adapter, fenced, mailbox.provider, context);
      }
      let initialComplete = false;
      if (work.delta) {
        operation = 'sync';
        const states = await loadFolderStates(mailbox.id);
        const folders = work.delta === 'inbox' ? states.filter((folder) => folder.role === 'inbox') : states;
        const outcome = await adapter.syncDelta({ ...context, folders });
        initialComplete = outcome.initialComplete;
        // The count is kept exact batch by batch; a full delta also heals any drift.
        if (work.delta === true) await recountMessages(mailbox.id);
      }
      if (work.resync) {
        operation = 'resync';
        await this.resync(adapter, mailbox, context);
      }
      // After a full delta (where an initial sync lists headers first) the pass is only looked for: its first budget
      // comes in a run of its own, so a sync that listed headers first ends as soon as every message is listed. An
      // IDLE-woken inbox delta, new mail's path, does not look.
      let moreBodies = false;
      if ((work.bodies || work.delta === true) && !signal.aborted) {
        operation = 'sync';
        moreBodies = await this.bodies(adapter, context, work.bodies === true);
      }
      let moreBackfill = false;
      if (work.backfill && !signal.aborted) {
        operation = 'backfill';
        moreBackfill = await this.backfill(adapter, mailbox, context);
      }
      if (!signal.aborted) await recordSuccess(mailbox.id, { delta: Boolean(work.delta), initialComplete: initialComplete && work.delta === true }, this.options.leaseOwner);
      return { outcome: 'ok', more: { backfill: moreBackfill, operations: moreOperations, bodies: moreBodies } };
    } catch (error) {
      if (leaseLost(error)) {
        // Released or taken over while a batch was on its way: the holder syncs it now; nothing to record.
        await this.close();
        return { outcome: 'gone' };
      }
      const failure = classifySyncError(error, { hide: this.secrets });
      if (failure.kind === 'internal') log.error({ mailboxId: mailbox.id, operation, cause: internalFailureCause(error, { hide: this.secrets }) }, 'mailbox sync failed on our side');
      await this.close();
      const retryInMs = await recordFailure(mailbox.id, failure, operation);
      return { outcome: 'failed', failure, retryInMs };
    }
  }

  private async connect(mailbox: LoadedMailbox): Promise<MailProviderAdapter> {
    const usable = this.adapter && (this.adapter as { usable?: boolean }).usable !== false;
    if (this.adapter && usable) return this.adapter;
    await this.close();
    const opened = await openAdapter(mailbox, { limits: this.options.limits, imap: this.options.imap });
    this.adapter = opened.adapter;
    this.secrets = opened.secrets;
    this.listedAt = 0;
    return opened.adapter;
  }

  /** The folder states, after re-reading the provider's list on the first run and then at most every `folderListEveryMs` on deltas. */
  private async folders(mailbox: LoadedMailbox, adapter: MailProviderAdapter, delta: boolean) {
    const every = this.options.folderListEveryMs ?? 60_000;
    if (this.listedAt === 0 || (delta && Date.now() - this.listedAt >= every)) {
      const states = await reconcileFolders(mailbox, await adapter.listFolders());
      this.listedAt = Date.now();
      return states;
    }
    return loadFolderStates(mailbox.id);
  }

  /** Returns true when more operations are pending than one run applies. */
  private async applyOperations(adapter: MailProviderAdapter, mailbox: OperationFence, provider: LoadedMailbox['provider'], context: SyncContext): Promise<boolean> {
    const batch = 200;
    const pending = await pendingOperations(mailbox.id, batch);
    // The batch read every message's identity first: one moved by an earlier operation of the batch is
    // found under its new identity (a label after a move, as an undo makes, would otherwise look gone).
    const movedInBatch = new Map<string, MessageLocator>();
    for (const read of pending) {
      if (context.signal.aborted) return true;
      if (!read.message) {
        await dropOperation(mailbox, read.id);
        continue;
      }
      const moved = movedInBatch.get(read.messageId);
      const message = moved ? { ...read.message, ...moved, messageIdHeader: moved.messageIdHeader ?? read.message.messageIdHeader } : read.message;
      const operation = { ...read, message };
      try {
        const result = await adapter.applyOperation(
          { action: operation.action, params: operation.params as never, message: operation.message },
          context.folders,
        );
        if (result.moved) movedInBatch.set(operation.messageId, result.moved);
        await completeOperation(mailbox, operation, result);
      } catch (error) {
        // The mailbox went to another runner after the provider answered: nothing is recorded, the holder applies it again.
        if (error instanceof MailboxLeaseLost) throw error;
        const failure = classifySyncError(error, { hide: this.secrets });
        // The connection or the account is the problem: the whole run fails and retries later.
        if (failure.kind !== 'protocol') throw error;
        const serverFolder = provider === 'imap' ? (parseImapProviderKey(operation.message.providerKey)?.folderKey ?? null) : null;
        await failOperation(mailbox, operation, failure.message, this.options.operationAttempts ?? 5, serverFolder);
      }
    }
    return pending.length === batch;
  }

  private async resync(adapter: MailProviderAdapter, mailbox: LoadedMailbox, context: SyncContext): Promise<void> {
    const since = resyncSinceOf(mailbox.syncState);
    if (!since) return;
    await adapter.resync({ ...context, folders: await loadFolderStates(mailbox.id) }, since);
    // Cleared only if no earlier window was asked for meanwhile.
    await db().$executeRaw`
      UPDATE mailboxes SET sync_state = sync_state - 'resyncSince'
       WHERE id = ${mailbox.id}::uuid AND sync_state->>'resyncSince' = ${since.toISOString()}`;
  }

  /** One budget of the body pass when `fill`, else only the look; returns true when more remains. */
  private async bodies(adapter: MailProviderAdapter, context: SyncContext, fill: boolean): Promise<boolean> {
    if (!adapter.fillBodies) return false;
    const until = Date.now() + (this.options.bodiesRunMs ?? runTimeMs);
    const pending = await pendingBodies(context.mailboxId, fill ? (this.options.bodiesPerRun ?? 2_000) : 1);
    if (!fill || pending.length === 0) return pending.length > 0;
    await adapter.fillBodies(context, pending, { until });
    return !context.signal.aborted && (await pendingBodies(context.mailboxId, 1)).length > 0;
  }

  /** One budget of backfill; returns true when more remains. */
  private async backfill(adapter: MailProviderAdapter, mailbox: LoadedMailbox, context: SyncContext): Promise<boolean> {
    if (mailbox.backfillStatus !== 'pending' && mailbox.backfillStatus !== 'running') return false;
    // processing_only keeps recent mail only (./sync-mode.ts): a backfill has nothing to mirror.
    const done = !backfillAllowed(mailbox.syncMode);
    let outcome = { done, remaining: 0 as number | null, inserted: 0 };
    if (!done) {
      await db().mailbox.update({ where: { id: mailbox.id }, data: { backfillStatus: 'running' } });
      // Also a time budget: over a slow link 1,000 messages take tens of seconds, and new mail reported by IDLE waits for the run.
      const until = Date.now() + (this.options.backfillRunMs ?? runTimeMs);
      outcome = await adapter.backfill({ ...context, folders: await loadFolderStates(mailbox.id) }, { since: mailbox.backfillSince, sliceSize: this.options.backfillPerRun ?? 1000, until });
    }
    const [stats] = await db().$queryRaw<{ mirrored: bigint; oldest: Date | null }[]>`
      SELECT count(*) AS mirrored, min(received_at) AS oldest FROM mail_messages WHERE mailbox_id = ${mailbox.id}::uuid`;
    const mirrored = Number(stats?.mirrored ?? 0);
    const remaining = outcome.remaining ?? 0;
    const progressPct = outcome.done ? 100 : mirrored + remaining === 0 ? 0 : Math.min(99.9, Math.round((1000 * mirrored) / (mirrored + remaining)) / 10);
    const updated = await db().mailbox.update({
      where: { id: mailbox.id },
      data: { backfillStatus: outcome.done ? 'done' : 'running', backfillProgressPct: progressPct, backfillOldestAt: stats?.oldest ?? null },
      select: { status: true, backfillStatus: true, backfillProgressPct: true, backfillOldestAt: true },
    });
    await emitToMember(mailbox.memberId, 'mailbox.status', {
      mailboxId: mailbox.id,
      status: updated.status,
      backfill: { status: updated.backfillStatus, progressPct: updated.backfillProgressPct, oldestSyncedAt: updated.backfillOldestAt?.toISOString() ?? null },
    });
    return !outcome.done && !context.signal.aborted;
  }

  /** Opens the provider's push channel (IDLE) for this mailbox, or null when it offers none. */
  async watch(onChange: (change: WatchChange) => void, onEnd: (error: unknown) => void, options?: WatchOptions) {
    const mailbox = await loadMailbox(this.mailboxId);
    if (!mailbox || mailbox.status === 'disconnected') return null;
    const adapter = await this.connect(mailbox);
    return adapter.watch ? adapter.watch(onChange, onEnd, options) : null;
  }

  async close(): Promise<void> {
    const adapter = this.adapter;
    this.adapter = null;
    if (adapter) await adapter.close().catch(() => {});
  }
}
