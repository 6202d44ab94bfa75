/**
 * What the support sync loop (`./run.ts`) needs from the database. The loop owns the wire; the store owns the rows.
 * sup-core implements it in `server/domains/support/sync-store.ts` and exports it from the domain's face as
 * `supportSyncStore`; the sync tests run the same loop over an in-memory fake (`server/testing/control-plane/`).
 *
 * Ids: a thread's `id` and a member message's `id` are chosen locally (uuid) and are the ids the operator knows
 * them by, so a retried delivery can never make a second thread or message. A team message keeps its local id
 * (chosen by the store) and the operator's id (`operatorMessageId`, the key that makes a duplicate harmless).
 *
 * Every method may be called by several runner processes at once: the store's writes must be safe under that
 * (applyChanges in one transaction; markDelivered/markFailed on an item already delivered are no-ops).
 */

export type SupportThreadKind = 'request' | 'conversation';

export const SUPPORT_REQUEST_STATUSES = [
  'received',
  'in_study',
  'quoted',
  'in_progress',
  'delivered',
  'rejected',
] as const;
export const SUPPORT_CONVERSATION_STATUSES = ['open', 'closed'] as const;
export type SupportRequestStatus = (typeof SUPPORT_REQUEST_STATUSES)[number];
export type SupportConversationStatus = (typeof SUPPORT_CONVERSATION_STATUSES)[number];
export type SupportThreadStatus = SupportRequestStatus | SupportConversationStatus;

/** The author of a member-side item, as the operator will show it. */
export type SupportOutboxAuthor = { name: string; memberId: string | null };

/**
 * An undelivered outbox item. `itemId` is the outbox row (what markDelivered/markFailed take); `attempts` is how
 * many deliveries already failed (0 for a fresh item), so the loop can compute the next backoff.
 * A request's title is its `subject` and its need is its `body`.
 */
export type SupportOutboxItem =
  | {
      type: 'thread';
      itemId: string;
      attempts: number;
      threadId: string;
      /** The thread's first message (client-chosen uuid), delivered with the thread. */
      messageId: string;
      kind: SupportThreadKind;
      subject: string;
      body: string;
      author: SupportOutboxAuthor;
      createdAt: Date;
    }
  | {
      type: 'message';
      itemId: string;
      attempts: number;
      threadId: string;
      messageId: string;
      body: string;
      author: SupportOutboxAuthor;
      createdAt: Date;
    };

/**
 * A change from the operator. `seq` is the operator's sequence for this instance: an integer that grows with every
 * change it records, so between two changes of the same field of the same thread the greater `seq` is the newer,
 * whatever order they arrive in. A change for a thread the store does not know is ignored.
 */
export type SupportChange =
  | {
      type: 'team_message';
      seq: number;
      threadId: string;
      /** The operator's id of the message: a second change with the same id is ignored. */
      operatorMessageId: string;
      authorName: string;
      body: string;
      createdAt: Date;
    }
  | {
      /** Applied only when `seq` is greater than the last applied status change of the thread, and only when the
       *  status belongs to the thread's kind (else ignored). */
      type: 'status';
      seq: number;
      threadId: string;
      status: SupportThreadStatus;
      at: Date;
    }
  | {
      /** Same ordering rule as `status`, kept separately (a status and an assignee change do not race). */
      type: 'assignee';
      seq: number;
      threadId: string;
      assigneeName: string | null;
      at: Date;
    }
  | {
      /** The operator holds our message `messageId` (a thread's first message acknowledges the thread too):
       *  the message is no longer pending and its outbox item counts as delivered. */
      type: 'ack';
      seq: number;
      threadId: string;
      messageId: string;
      at: Date;
    };

/** The operator's branding for this instance, as validated by the sync (colours `#RRGGBB`, URIs https). */
export type OperatorBranding = {
  name: string | null;
  logo: { light: string | null; dark: string | null };
  favicon: string | null;
  colors: {
    primary: string | null;
    onPrimary: string | null;
    accent: string | null;
    onAccent: string | null;
  };
  supportUrl: string | null;
  poweredBy: string | null;
  login: { welcome: { en: string; fr: string } | null; image: string | null };
};

export interface SupportSyncStore {
  /** Where the pull stands: the operator's opaque cursor (null before the first pull) and the last successful
   *  exchange. */
  linkState(): Promise<{ cursor: string | null; syncedAt: Date | null }>;

  /**
   * Up to `limit` undelivered items, oldest first, in order per thread: a thread's item comes before its messages,
   * and a thread's items are returned only as a prefix of its undelivered items whose first item is due
   * (`nextAttemptAt` null or <= `now`). So a thread waiting on a retry holds back its later messages.
   */
  nextOutbox(limit: number, now: Date): Promise<SupportOutboxItem[]>;

  /** The operator holds the item: its message (and thread) stop being pending. A no-op when already delivered. */
  markDelivered(itemId: string, at: Date): Promise<void>;

  /** A delivery failed: attempts + 1, the last error kept (never a secret), not due before `nextAttemptAt`. */
  markFailed(itemId: string, failure: { error: string; nextAttemptAt: Date }): Promise<void>;

  /**
   * In ONE transaction: apply `changes` (idempotent: duplicates and stale changes are ignored), move the cursor to
   * `nextCursor`, set `syncedAt` to `at`. Answers the threads whose visible state changed (for live events).
   */
  applyChanges(
    changes: SupportChange[],
    nextCursor: string | null,
    at: Date,
  ): Promise<{ changedThreadIds: string[] }>;

  /** A successful exchange that brought nothing new. */
  markSynced(at: Date): Promise<void>;

  /** Keep the operator's branding (null: the operator has none, the environment's applies), fetched at `at`. */
  saveBranding(branding: OperatorBranding | null, at: Date): Promise<void>;

  /** The kept branding, or null when never fetched or the operator has none. */
  cachedBranding(): Promise<{ branding: OperatorBranding; fetchedAt: Date } | null>;
}
