/**
 * The seam between the sync orchestrator (runner/mail) and a mail provider. The orchestrator owns
 * leases, backoff, status and notifications; an adapter owns one provider's wire protocol. Adapters
 * never write the mirror themselves: they hand batches to a `MirrorSink`, which commits each batch's
 * rows together with the cursor that covers them (so a crash between batches resumes with no gap and
 * no duplicate), recomputes threads and announces the change.
 *
 * Terminology: a mailbox is one connected account; a folder is an IMAP mailbox or a provider label /
 * well-known folder; a message is one provider message (for IMAP: one UID in one folder, identified by
 * `providerKey` = "<folderKey>\n<uidValidity>\n<uid>"); a cursor is how far a folder is mirrored
 * (IMAP: uidValidity, syncedUid, oldestUid, highestModseq; providers: a delta token).
 *
 * Implemented by the IMAP adapter (./imap/sync/adapter.ts); the Gmail-compatible and Graph-compatible
 * adapters implement the same interface.
 */

export type MailProvider = 'imap' | 'mail_provider_a' | 'mail_provider_b';
export type FolderRole = 'inbox' | 'starred' | 'sent' | 'drafts' | 'archive' | 'all' | 'spam' | 'trash';
export type IngestedVia = 'initial' | 'delta' | 'backfill' | 'resync';

export interface ProviderFolder {
  /** Stable key (IMAP path; provider label/folder id mapped to a readable key). 1-256 chars. */
  key: string;
  name: string | null;
  role: FolderRole | null;
  parentKey: string | null;
  depth: number;
  delimiter: string | null;
  /** Provider's own id when it differs from `key`. */
  providerId: string | null;
  /** False for a folder that holds no messages (a hierarchy node, or a system role the server lacks). */
  selectable: boolean;
  color?: string | null;
}

export interface MessageFlags {
  seen: boolean;
  flagged: boolean;
  draft: boolean;
  /** Answered is not part of the spec's flags; `sent` comes from the folder role or the provider. */
  sent: boolean;
}

/** A message read from the provider, to be ingested (parsed, signalled, threaded) by the sink. */
export interface IncomingMessage {
  providerKey: string;
  folderKey: string;
  labels: string[];
  uid: bigint | null;
  uidValidity: bigint | null;
  modseq: bigint | null;
  flags: MessageFlags;
  /** Server receive time (IMAP INTERNALDATE); the date header is the fallback. */
  internalDate: Date | null;
  size: number;
  /**
   * The RFC 5322 source. In `processing_only` mode (or when the source was too large to fetch whole)
   * only the header block is given and `sourceComplete` is false: bodies are fetched on demand.
   */
  source: Buffer;
  sourceComplete: boolean;
  /**
   * Only the header was fetched, so that a large initial sync lists every message first (`headersFirstAbove`):
   * the row is written with `bodyPending` and the body pass (`MirrorSink.fillBodies`) brings the rest.
   */
  bodyDeferred?: boolean;
}

/** A row the body pass still has to fill: its id in the mirror and where the provider keeps it. */
export interface PendingBody {
  id: string;
  providerKey: string;
}

/** One transaction of the body pass: full sources of rows listed from their header, and rows the provider no longer has. */
export interface BodyBatch {
  messages: Array<{ messageId: string; incoming: IncomingMessage }>;
  /** Pending rows whose message the provider did not return: left to the delta's expunge, no longer pending. */
  missing: string[];
}

export interface FlagUpdate {
  providerKey: string;
  flags: MessageFlags;
  labels?: string[];
  modseq?: bigint | null;
  /**
   * The message's folder when it differs from the mirror's: the server has it elsewhere (resync), or
   * the provider moved it without changing its identity (a Gmail label change, a Graph move under
   * immutable ids). Unchanged when absent.
   */
  folderKey?: string;
}

/** Per-folder cursor fields; only the fields present are written. */
export interface FolderCursor {
  folderKey: string;
  uidValidity?: bigint | null;
  uidNext?: bigint | null;
  syncedUid?: bigint | null;
  oldestUid?: bigint | null;
  highestModseq?: bigint | null;
  deltaToken?: string | null;
}

export interface MirrorBatch {
  ingestedVia: IngestedVia;
  messages: IncomingMessage[];
  flagUpdates: FlagUpdate[];
  /** Messages gone from the server (expunged, or moved by someone else). */
  removedProviderKeys: string[];
  /** Advanced in the same transaction as the rows above. */
  cursors: FolderCursor[];
}

export interface MirrorSink {
  /**
   * Commits one batch atomically; returns how many messages were new to the mirror. Batches may be
   * handed over before the previous one resolved: they are ingested at once and written strictly in
   * order, and a batch is never written after an earlier one failed (no cursor past a gap).
   */
  commit(batch: MirrorBatch): Promise<{ inserted: number }>;
  /** Drops every mirrored row of a folder (UIDVALIDITY changed) and resets its cursor, in one transaction. */
  resetFolder(folderKey: string, uidValidity: bigint | null): Promise<void>;
  /** Provider keys mirrored under a prefix (IMAP: one folder generation, "<folder>\n<uidValidity>\n"). */
  mirroredKeys(prefix: string): Promise<string[]>;
  /**
   * Which of these provider keys the mirror holds. For providers whose change feed does not say
   * whether a message is new to us (Gmail history, Graph delta): known ones get a flag update, unknown
   * ones are fetched and ingested. Optional: without it the adapters fetch every changed message.
   */
  known?(providerKeys: string[]): Promise<Set<string>>;
  /** Fills rows listed from their header (`bodyPending`) with their body, snippet, signals and attachments; in order with `commit`. */
  fillBodies(batch: BodyBatch): Promise<{ filled: number }>;
}

/**
 * An initial sync reads the inbox's newest messages first and commits them as one batch, before the
 * rest of its window, so the member sees the top of the list within moments instead of after the
 * whole window (issue 25 §3). The mail list shows 50 rows a page.
 */
export const newestFirstCount = 50;

/**
 * The rule of a run's time budget (backfill, body pass): past `until` (ms since the epoch) no batch starts once the
 * run has done one, so every run moves its work on and none holds the connection, new mail waiting behind it, much
 * past its time whatever the link's speed.
 */
export function runTimeIsUp(until: number | undefined, batchesDone: number): boolean {
  return until !== undefined && batchesDone > 0 && Date.now() >= until;
}

/** What the orchestrator knows of the mirror when it calls an adapter. */
export interface SyncContext {
  mailboxId: string;
  address: string;
  syncMode: 'full' | 'processing_only';
  /** Mirror folders with their cursors, as stored. */
  folders: Array<ProviderFolder & Omit<FolderCursor, 'folderKey'>>;
  sink: MirrorSink;
  /** Aborted on shutdown or lease loss: stop between batches. */
  signal: AbortSignal;
  /** Initial sync window: messages newer than this (and at most `initialMaxPerFolder` per folder). */
  initialSince: Date;
  initialMaxPerFolder: number;
  /**
   * A folder whose initial window holds more messages than this is listed from their headers first, its bodies
   * fetched by the body pass afterwards (`MailProviderAdapter.fillBodies`); absent: every message is fetched whole.
   */
  headersFirstAbove?: number;
}

export interface SyncOutcome {
  inserted: number;
  /** True when every folder's initial window is mirrored. */
  initialComplete: boolean;
}

export interface BackfillOutcome {
  inserted: number;
  done: boolean;
  /** Messages still to read (when the provider can tell). */
  remaining: number | null;
  /** Oldest receive time mirrored so far. */
  oldestAt: Date | null;
  progressPct: number | null;
}

export interface MessageLocator {
  providerKey: string;
  folderKey: string;
  uid: bigint | null;
  uidValidity: bigint | null;
  /** To find the message again when its identity at the provider was lost (a MOVE without COPYUID). */
  messageIdHeader?: string | null;
}

export interface MailOperationInput {
  action: string;
  params: { fromFolderKey?: string; toFolderKey?: string; labelsAdd?: string[]; labelsRemove?: string[] };
  message: MessageLocator;
}

/** A message's identity after an operation moved it (COPYUID / provider answer); null when unchanged. */
export interface AppliedOperation {
  moved: MessageLocator | null;
  /** True when the message no longer exists at the provider (deleted permanently). */
  removed: boolean;
}

/** What a watch saw change: the inbox (IDLE), or another folder (a look at their status). */
export type WatchChange = 'inbox' | 'folders';

export interface WatchOptions {
  /** How often the folders other than the inbox are looked at, where the provider allows it cheaply; 0: never. */
  folderCheckMs?: number;
  /**
   * How often an otherwise silent watch proves its connection alive (IMAP: a NOOP that must be answered
   * within `aliveTimeoutMs`, or the watch ends as a timeout); 0 or absent: never.
   */
  aliveCheckMs?: number;
  aliveTimeoutMs?: number;
  /** Called whenever the watch knows its connection alive (opened, an event, an answered look or NOOP). */
  onAlive?: () => void;
}

export interface WatchHandle {
  /** Resolves once the watch connection is closed. */
  close(): Promise<void>;
}

export interface MailProviderAdapter {
  readonly provider: MailProvider;
  listFolders(): Promise<ProviderFolder[]>;
  /** Initial sync of recent mail where a folder has none yet, then the delta of every folder. */
  syncDelta(context: SyncContext): Promise<SyncOutcome>;
  /**
   * One slice of older mail, down to `since` (null: everything): at most `sliceSize` messages and, where the
   * adapter fetches in batches, past `until` (ms since the epoch) no batch after the run's first.
   */
  backfill(context: SyncContext, options: { since: Date | null; sliceSize: number; until?: number }): Promise<BackfillOutcome>;
  /** Re-reads messages received since the date: refreshes flags and folders, inserts missing ones (silent). */
  resync(context: SyncContext, since: Date): Promise<{ inserted: number; refreshed: number }>;
  /**
   * The body pass: fetches the whole source of rows listed from their header and hands them to
   * `context.sink.fillBodies`, in batches; past `until` (ms since the epoch) it stops between batches, after its
   * first. Only adapters that list headers first (`headersFirstAbove`) have it.
   */
  fillBodies?(context: SyncContext, pending: PendingBody[], options?: { until?: number }): Promise<{ filled: number }>;
  /**
   * The RFC 5322 source of one message (or, with `part`, the decoded content of one MIME part), up
   * to a bound; `complete` false when it was cut. Null when the message is gone from the server.
   */
  fetchContent(message: MessageLocator, options?: { part?: string }): Promise<{ content: Buffer; complete: boolean } | null>;
  applyOperation(operation: MailOperationInput, folders: ProviderFolder[]): Promise<AppliedOperation>;
  /**
   * Push notifications of changes (IMAP IDLE on the inbox, on a connection of its own, with a look
   * at the other folders every `folderCheckMs`); null when the provider offers none (the orchestrator
   * polls instead). `onEnd` runs once when the watch stops by itself (connection lost), never after
   * `close()`.
   */
  watch?(onChange: (change: WatchChange) => void, onEnd: (error: unknown) => void, options?: WatchOptions): Promise<WatchHandle | null>;
  close(): Promise<void>;
}
