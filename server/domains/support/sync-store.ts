/**
 * `SupportSyncStore` (`./sync/store.ts`) over PostgreSQL: what the runner's sync loop reads and writes.
 * The outbox is the member messages not delivered yet (`support_messages.delivered_at` null); an item's
 * `itemId` is its message id (for a thread's item: its first message's). Operator changes are applied
 * idempotently in one transaction with the cursor; every thread whose visible state changed is announced
 * (`support.thread`, `./announce.ts`) and a team reply notifies the thread's author (`support.reply`).
 */
import { config } from '../../core/config';
import { db, type Tx } from '../../core/db';
import { isUuid } from '../../core/ids';
import { notify } from '../notifications';
import { announceThreads } from './announce';
import {
  applyAssignee,
  applyStatus,
  findDueOutbox,
  insertTeamMessage,
  lockLink,
  markMessageDelivered,
  moveCursor,
  readLink,
  recordDeliveryFailure,
  recordSynced,
  storeBranding,
  type ChangedThread,
  type OutboxRow,
} from './repo-sync';
import {
  SUPPORT_CONVERSATION_STATUSES,
  SUPPORT_REQUEST_STATUSES,
  type OperatorBranding,
  type SupportChange,
  type SupportOutboxItem,
  type SupportSyncStore,
} from './sync/store';

/** Items handed out at once, whatever the loop asks. */
const outboxMax = 500;
/** What an operator's change may carry, as stored (longer text is cut, a longer id makes the change ignored). */
const teamBounds = { body: 20_000, name: 200, operatorId: 200 } as const;
/** A failure kept for the record: short, storable, and never the instance secret. */
const errorMax = 500;

function outboxItem(row: OutboxRow): SupportOutboxItem {
  const author = { name: row.author_name, memberId: row.author_member_id };
  const common = { itemId: row.id, attempts: row.attempts, threadId: row.thread_id, messageId: row.id, body: row.body, author, createdAt: row.created_at };
  if (!row.opens_thread) return { type: 'message', ...common };
  return { type: 'thread', ...common, kind: row.kind as 'request' | 'conversation', subject: row.subject };
}

/** Text PostgreSQL can store (no NUL or other controls but tab and newlines, no lone surrogate), at most `max` characters. */
function storable(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '').toWellFormed();
  return clean.length > max ? `${clean.slice(0, max - 1).toWellFormed()}…` : clean;
}

/** The error as kept: the secret (should a message ever quote it) replaced, storable, bounded. */
export function keptError(error: string): string {
  const secret = config().controlPlane?.secret;
  return storable(secret ? error.split(secret).join('[redacted]') : error, errorMax);
}

const kindOfStatus = new Map<string, 'request' | 'conversation'>([
  ...SUPPORT_REQUEST_STATUSES.map((status) => [status, 'request'] as const),
  ...SUPPORT_CONVERSATION_STATUSES.map((status) => [status, 'conversation'] as const),
]);

/** A change the store can apply: ids shaped as ours, a sequence it can compare. Anything else is ignored. */
function usable(change: SupportChange): boolean {
  if (!isUuid(change.threadId) || !Number.isSafeInteger(change.seq)) return false;
  if (change.type === 'ack') return isUuid(change.messageId);
  if (change.type === 'team_message') return change.operatorMessageId.length > 0 && change.operatorMessageId.length <= teamBounds.operatorId && !Number.isNaN(change.createdAt.getTime());
  if (change.type === 'status') return kindOfStatus.has(change.status);
  return true;
}

async function applyOne(tx: Tx, change: SupportChange, at: Date): Promise<ChangedThread | null> {
  const threadId = change.threadId.toLowerCase();
  switch (change.type) {
    case 'team_message': {
      const message = {
        threadId,
        operatorMessageId: storable(change.operatorMessageId, teamBounds.operatorId),
        authorName: storable(change.authorName, teamBounds.name),
        body: storable(change.body, teamBounds.body),
        createdAt: change.createdAt,
      };
      const thread = await insertTeamMessage(tx, message, at);
      if (thread?.authorMemberId) {
        const params = { threadId: thread.id, subject: storable(thread.subject, 120), authorName: message.authorName };
        await notify({ memberId: thread.authorMemberId, kind: 'support.reply', severity: 'info', params, link: `/support/${thread.id}` }, tx);
      }
      return thread;
    }
    case 'status':
      return applyStatus(tx, { threadId, kind: kindOfStatus.get(change.status)!, status: change.status, seq: BigInt(change.seq) }, at);
    case 'assignee':
      return applyAssignee(tx, { threadId, assigneeName: change.assigneeName === null ? null : storable(change.assigneeName, teamBounds.name), seq: BigInt(change.seq) }, at);
    case 'ack':
      return markMessageDelivered(tx, change.messageId.toLowerCase(), at, threadId);
  }
}

export const supportSyncStore: SupportSyncStore = {
  async linkState() {
    const link = await readLink();
    return { cursor: link?.cursor ?? null, syncedAt: link?.syncedAt ?? null };
  },

  async nextOutbox(limit, now) {
    const take = Math.max(0, Math.min(outboxMax, Math.floor(limit)));
    if (take === 0) return [];
    return (await findDueOutbox(now, take)).map(outboxItem);
  },

  async markDelivered(itemId, at) {
    if (!isUuid(itemId)) return;
    await db().$transaction(async (tx) => {
      const thread = await markMessageDelivered(tx, itemId.toLowerCase(), at);
      if (thread) await announceThreads(tx, [thread]);
    });
  },

  async markFailed(itemId, failure) {
    if (!isUuid(itemId)) return;
    await recordDeliveryFailure(itemId.toLowerCase(), { error: keptError(failure.error), nextAttemptAt: failure.nextAttemptAt });
  },

  async applyChanges(changes, nextCursor, at) {
    return db().$transaction(async (tx) => {
      await lockLink(tx);
      const changed = new Map<string, ChangedThread>();
      for (const change of changes) {
        if (!usable(change)) continue;
        const thread = await applyOne(tx, change, at);
        if (thread) changed.set(thread.id, thread);
      }
      await moveCursor(tx, nextCursor, at);
      await announceThreads(tx, [...changed.values()]);
      return { changedThreadIds: [...changed.keys()] };
    }, { timeout: 30_000 });
  },

  async markSynced(at) {
    await recordSynced(at);
  },

  async saveBranding(branding, at) {
    await storeBranding(branding, at);
  },

  async cachedBranding() {
    const link = await readLink();
    if (!link?.branding || !link.brandingFetchedAt) return null;
    return { branding: link.branding as unknown as OperatorBranding, fetchedAt: link.brandingFetchedAt };
  },
};
