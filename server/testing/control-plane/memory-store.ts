/**
 * An in-memory `SupportSyncStore` with the semantics the interface fixes (server/domains/support/sync/store.ts),
 * plus what the tests need to play the members' side (write a thread or a message as the routes would: stored
 * first, pending, queued in the outbox) and to read the result. With `file`, every change is written through to a
 * JSON file (replaced atomically) and read back at construction, so a process killed with SIGKILL restarts from
 * the same state, as it would from the database (the crash test).
 *
 * The sync tests take their store from a factory: pointing them at sup-core's database store means giving them
 * an object with the same test methods over the real routes/service (see sync.int.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import {
  SUPPORT_CONVERSATION_STATUSES,
  SUPPORT_REQUEST_STATUSES,
  type OperatorBranding,
  type SupportChange,
  type SupportOutboxItem,
  type SupportSyncStore,
  type SupportThreadKind,
  type SupportThreadStatus,
} from '../../domains/support/sync/store';

export type StoredMessage = {
  id: string;
  direction: 'member' | 'team';
  authorName: string;
  authorMemberId: string | null;
  body: string;
  createdAt: string;
  pending: boolean;
  operatorMessageId: string | null;
};

export type StoredThread = {
  id: string;
  kind: SupportThreadKind;
  subject: string;
  status: SupportThreadStatus;
  statusSeq: number;
  assigneeName: string | null;
  assigneeSeq: number;
  authorName: string;
  authorMemberId: string | null;
  createdAt: string;
  updatedAt: string;
  messages: StoredMessage[];
};

type OutboxRow = {
  itemId: string;
  order: number;
  type: 'thread' | 'message';
  threadId: string;
  messageId: string;
  deliveredAt: string | null;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string | null;
};

type State = {
  threads: Record<string, StoredThread>;
  outbox: OutboxRow[];
  cursor: string | null;
  syncedAt: string | null;
  branding: { branding: OperatorBranding | null; fetchedAt: string } | null;
  order: number;
};

export type Author = { name: string; memberId: string | null };

export class MemorySupportStore implements SupportSyncStore {
  private state: State;

  constructor(private readonly file?: string) {
    this.state =
      file && existsSync(file)
        ? (JSON.parse(readFileSync(file, 'utf8')) as State)
        : { threads: {}, outbox: [], cursor: null, syncedAt: null, branding: null, order: 0 };
  }

  // --- the members' side (what sup-core's routes do) --------------------------------------------------------

  createThread(input: { kind: SupportThreadKind; subject: string; body: string; author: Author; at?: Date }): { threadId: string; messageId: string } {
    const at = (input.at ?? new Date()).toISOString();
    const threadId = randomUUID();
    const messageId = randomUUID();
    this.state.threads[threadId] = {
      id: threadId,
      kind: input.kind,
      subject: input.subject,
      status: input.kind === 'request' ? 'received' : 'open',
      statusSeq: 0,
      assigneeName: null,
      assigneeSeq: 0,
      authorName: input.author.name,
      authorMemberId: input.author.memberId,
      createdAt: at,
      updatedAt: at,
      messages: [{ id: messageId, direction: 'member', authorName: input.author.name, authorMemberId: input.author.memberId, body: input.body, createdAt: at, pending: true, operatorMessageId: null }],
    };
    this.queue('thread', threadId, messageId);
    this.save();
    return { threadId, messageId };
  }

  addMessage(threadId: string, input: { body: string; author: Author; at?: Date }): string {
    const thread = this.mustThread(threadId);
    const at = (input.at ?? new Date()).toISOString();
    const messageId = randomUUID();
    thread.messages.push({ id: messageId, direction: 'member', authorName: input.author.name, authorMemberId: input.author.memberId, body: input.body, createdAt: at, pending: true, operatorMessageId: null });
    thread.updatedAt = at;
    this.queue('message', threadId, messageId);
    this.save();
    return messageId;
  }

  thread(threadId: string): StoredThread & { pending: boolean } {
    const thread = this.mustThread(threadId);
    return { ...structuredClone(thread), pending: thread.messages.some((message) => message.pending) };
  }

  threadIds(): string[] {
    return Object.keys(this.state.threads);
  }

  outboxRow(messageId: string): Readonly<OutboxRow> | undefined {
    return this.state.outbox.find((row) => row.messageId === messageId);
  }

  /** Reload from the file (another process wrote it). */
  reload(): void {
    if (this.file && existsSync(this.file)) this.state = JSON.parse(readFileSync(this.file, 'utf8')) as State;
  }

  // --- SupportSyncStore -------------------------------------------------------------------------------------

  async linkState() {
    return { cursor: this.state.cursor, syncedAt: this.state.syncedAt ? new Date(this.state.syncedAt) : null };
  }

  async nextOutbox(limit: number, now: Date): Promise<SupportOutboxItem[]> {
    const waiting = this.state.outbox.filter((row) => row.deliveredAt === null).sort((a, b) => a.order - b.order);
    const headDue = new Map<string, boolean>();
    const items: SupportOutboxItem[] = [];
    for (const row of waiting) {
      if (!headDue.has(row.threadId)) headDue.set(row.threadId, row.nextAttemptAt === null || new Date(row.nextAttemptAt) <= now);
      if (!headDue.get(row.threadId)) continue;
      if (items.length >= limit) break;
      items.push(this.toItem(row));
    }
    return items;
  }

  async markDelivered(itemId: string, at: Date): Promise<void> {
    const row = this.state.outbox.find((candidate) => candidate.itemId === itemId);
    if (!row || row.deliveredAt !== null) return;
    this.deliver(row, at);
    this.save();
  }

  async markFailed(itemId: string, failure: { error: string; nextAttemptAt: Date }): Promise<void> {
    const row = this.state.outbox.find((candidate) => candidate.itemId === itemId);
    if (!row || row.deliveredAt !== null) return;
    row.attempts += 1;
    row.lastError = failure.error;
    row.nextAttemptAt = failure.nextAttemptAt.toISOString();
    this.save();
  }

  async applyChanges(changes: SupportChange[], nextCursor: string | null, at: Date): Promise<{ changedThreadIds: string[] }> {
    // One transaction: work on a copy, swap it in at the end.
    const before = JSON.stringify(this.state);
    const changed = new Set<string>();
    try {
      for (const change of changes) if (this.applyOne(change, at)) changed.add(change.threadId);
      this.state.cursor = nextCursor;
      this.state.syncedAt = at.toISOString();
    } catch (error) {
      this.state = JSON.parse(before) as State;
      throw error;
    }
    this.save();
    return { changedThreadIds: [...changed] };
  }

  async markSynced(at: Date): Promise<void> {
    this.state.syncedAt = at.toISOString();
    this.save();
  }

  async saveBranding(branding: OperatorBranding | null, at: Date): Promise<void> {
    this.state.branding = { branding, fetchedAt: at.toISOString() };
    this.save();
  }

  async cachedBranding(): Promise<{ branding: OperatorBranding; fetchedAt: Date } | null> {
    const kept = this.state.branding;
    return kept?.branding ? { branding: kept.branding, fetchedAt: new Date(kept.fetchedAt) } : null;
  }

  // --- inside -----------------------------------------------------------------------------------------------

  private applyOne(change: SupportChange, at: Date): boolean {
    const thread = this.state.threads[change.threadId];
    if (!thread) return false;
    switch (change.type) {
      case 'team_message': {
        if (thread.messages.some((message) => message.operatorMessageId === change.operatorMessageId)) return false;
        const createdAt = change.createdAt.toISOString();
        thread.messages.push({ id: randomUUID(), direction: 'team', authorName: change.authorName, authorMemberId: null, body: change.body, createdAt, pending: false, operatorMessageId: change.operatorMessageId });
        thread.messages.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
        thread.updatedAt = maxIso(thread.updatedAt, createdAt);
        return true;
      }
      case 'status': {
        const allowed: readonly string[] = thread.kind === 'request' ? SUPPORT_REQUEST_STATUSES : SUPPORT_CONVERSATION_STATUSES;
        if (change.seq <= thread.statusSeq || !allowed.includes(change.status)) return false;
        thread.statusSeq = change.seq;
        const moved = thread.status !== change.status;
        thread.status = change.status;
        thread.updatedAt = maxIso(thread.updatedAt, change.at.toISOString());
        return moved;
      }
      case 'assignee': {
        if (change.seq <= thread.assigneeSeq) return false;
        thread.assigneeSeq = change.seq;
        const moved = thread.assigneeName !== change.assigneeName;
        thread.assigneeName = change.assigneeName;
        thread.updatedAt = maxIso(thread.updatedAt, change.at.toISOString());
        return moved;
      }
      case 'ack': {
        const rows = this.state.outbox.filter((row) => row.messageId === change.messageId && row.threadId === change.threadId && row.deliveredAt === null);
        for (const row of rows) this.deliver(row, at);
        return rows.length > 0;
      }
    }
  }

  private deliver(row: OutboxRow, at: Date): void {
    row.deliveredAt = at.toISOString();
    const message = this.state.threads[row.threadId]?.messages.find((candidate) => candidate.id === row.messageId);
    if (message) message.pending = false;
  }

  private queue(type: 'thread' | 'message', threadId: string, messageId: string): void {
    this.state.order += 1;
    this.state.outbox.push({ itemId: randomUUID(), order: this.state.order, type, threadId, messageId, deliveredAt: null, attempts: 0, lastError: null, nextAttemptAt: null });
  }

  private toItem(row: OutboxRow): SupportOutboxItem {
    const thread = this.mustThread(row.threadId);
    const message = thread.messages.find((candidate) => candidate.id === row.messageId);
    if (!message) throw new Error(`outbox row ${row.itemId} without its message`);
    const author = { name: message.authorName, memberId: message.authorMemberId };
    const common = { itemId: row.itemId, attempts: row.attempts, threadId: row.threadId, messageId: row.messageId, body: message.body, author, createdAt: new Date(message.createdAt) };
    return row.type === 'thread' ? { ...common, type: 'thread', kind: thread.kind, subject: thread.subject } : { ...common, type: 'message' };
  }

  private mustThread(threadId: string): StoredThread {
    const thread = this.state.threads[threadId];
    if (!thread) throw new Error(`no thread ${threadId}`);
    return thread;
  }

  private save(): void {
    if (!this.file) return;
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(this.state));
    renameSync(temporary, this.file);
  }
}

function maxIso(a: string, b: string): string {
  return a > b ? a : b;
}
