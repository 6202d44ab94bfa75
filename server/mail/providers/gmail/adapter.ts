/**
 * The `mail_provider_a` adapter: a Gmail-API-compatible account as a MailProviderAdapter
 * (server/mail/provider.ts). Labels are folders (./labels.ts); `providerKey` is the Gmail
 * message id, so a message keeps its identity whatever its labels become.
 *
 * - Initial sync: a window pass (./cursor.ts) lists each listed folder newest first (`after:` the
 *   window start, at most `initialMaxPerFolder`), fetches each new message with format=raw and commits
 *   page by page with the folder's position. The account's history id is taken before the pass, so
 *   changes made meanwhile are replayed by the first delta (every step is idempotent).
 * - Delta: `history.list` from the stored history id; each page is one batch (new messages fetched,
 *   label changes as flag/folder updates, deletions as removals) committed with the id of the page's
 *   last record, so a killed run resumes after it. A 404 (history id expired, about a week) starts a
 *   window pass in `resync` mode: known messages get their labels refreshed, missing ones are ingested
 *   silently, nothing is duplicated (the id is the key).
 * - Backfill: pages of `before:` the oldest point every folder is complete to, newest first.
 * - Operations: ./plan.ts, from the message's current labels.
 * - No push (Gmail's needs a Pub/Sub topic): the orchestrator polls.
 */
import { config } from '../../../core/config';
import {
  newestFirstCount,
  type AppliedOperation,
  type BackfillOutcome,
  type FlagUpdate,
  type IncomingMessage,
  type MailOperationInput,
  type MailProviderAdapter,
  type MessageLocator,
  type ProviderFolder,
  type SyncContext,
  type SyncOutcome,
} from '../../provider';
import type { AccessTokenSource, ProviderFetch } from '../http-client';
import { accountBudget, type ProviderQuota } from '../call-budget';
import { providerLimits, type ProviderLimits } from '../limits';
import { isNotFound, ProviderError } from '../provider-errors';
import { abortReason, epochSeconds, headerBlock, mapLimit } from '../shared';
import { GmailApi, type GmailHistoryRecord, type GmailMessage } from './api';
import { decodeGmailCursor, encodeGmailCursor, type GmailCursor } from './cursor';
import { archiveKey, foldersFromLabels, isUserLabelId, listedFolderKeys, placeMessage } from './labels';
import { findGmailPart } from './parts';
import { planGmailOperation, type GmailStep } from './plan';

export interface GmailAdapterOptions {
  mailboxId: string;
  address: string;
  /** API root; default `MAIL_PROVIDER_A_API_URL`. */
  baseUrl?: string;
  accessToken: AccessTokenSource;
  fetch?: ProviderFetch;
  /** Private hosts allowed; default `MAIL_ALLOW_PRIVATE_HOSTS`. */
  allowPrivate?: boolean;
  limits?: Partial<ProviderLimits>;
  /** The account's quota; default the instance's setting for the provider. */
  quota?: ProviderQuota;
}

/** Everything but INBOX, SPAM, TRASH, DRAFT and SENT. */
const archiveQuery = '-in:inbox -in:spam -in:trash -in:drafts -in:sent';

interface FolderPass {
  key: string;
  cursor: GmailCursor;
}

interface Harvest {
  messages: IncomingMessage[];
  updates: FlagUpdate[];
  oldestMs: number | null;
}

export function createGmailAdapter(options: GmailAdapterOptions): MailProviderAdapter {
  return new GmailAdapter(options);
}

class GmailAdapter implements MailProviderAdapter {
  readonly provider = 'mail_provider_a' as const;
  private readonly api: GmailApi;
  private readonly limits: ProviderLimits;

  constructor(private readonly options: GmailAdapterOptions) {
    this.limits = providerLimits(options.limits);
    this.api = new GmailApi({
      baseUrl: options.baseUrl ?? config().MAIL_PROVIDER_A_API_URL,
      accessToken: options.accessToken,
      fetch: options.fetch,
      allowPrivate: options.allowPrivate,
      timeoutMs: this.limits.timeoutMs,
      budget: accountBudget('mail_provider_a', options, options.quota),
    });
  }

  async listFolders(): Promise<ProviderFolder[]> {
    return foldersFromLabels(await this.api.labels());
  }

  async syncDelta(context: SyncContext): Promise<SyncOutcome> {
    let inbox = this.inboxCursor(context);
    let inserted = 0;
    if (!inbox.historyId) {
      const pass = await this.windowPass(context, 'initial');
      inserted += pass.inserted;
      if (!pass.inbox) return { inserted, initialComplete: false };
      inbox = pass.inbox;
    }
    const delta = await this.applyHistory(context, inbox);
    inserted += delta.inserted;
    if (delta.expired) {
      const pass = await this.windowPass(context, 'resync', delta.inbox);
      inserted += pass.inserted;
    }
    return { inserted, initialComplete: true };
  }

  async backfill(context: SyncContext, options: { since: Date | null; sliceSize: number }): Promise<BackfillOutcome> {
    const inbox = this.inboxCursor(context);
    const oldestAt = (cursor: GmailCursor) => (cursor.backfillOldestMs !== undefined ? new Date(cursor.backfillOldestMs) : null);
    if (!inbox.historyId) return { inserted: 0, done: false, remaining: null, oldestAt: null, progressPct: null };
    const sinceMs = options.since?.getTime() ?? -1;
    let cursor: GmailCursor = inbox;
    if (cursor.backfillSinceMs !== sinceMs) {
      // A new request (or a deeper one): list again from where mirrored mail is complete.
      cursor = { ...cursor, backfillSinceMs: sinceMs, backfillPageToken: undefined, backfillListed: 0, backfillEstimate: undefined, backfillDone: undefined };
      if (cursor.backfillOldestMs !== undefined && cursor.backfillBeforeMs !== undefined) cursor.backfillBeforeMs = Math.min(cursor.backfillBeforeMs, cursor.backfillOldestMs + 1000);
    }
    if (cursor.backfillDone) return { inserted: 0, done: true, remaining: 0, oldestAt: oldestAt(cursor), progressPct: 100 };
    if (context.signal.aborted) throw abortReason(context.signal);
    const maxResults = Math.max(1, Math.min(500, options.sliceSize));
    const list = (from: GmailCursor) => {
      const before = from.backfillBeforeMs ?? context.initialSince.getTime();
      const q = `before:${Math.ceil(before / 1000)}${options.since ? ` after:${epochSeconds(options.since)}` : ''}`;
      return this.api.listMessages({ q, includeSpamTrash: true, maxResults, pageToken: from.backfillPageToken }, context.signal);
    };
    let page;
    try {
      page = await list(cursor);
    } catch (error) {
      if (!(cursor.backfillPageToken && error instanceof ProviderError && error.code === 'provider.bad_request')) throw error;
      // An expired page token: list again below the oldest message seen (the overlap is skipped as known).
      const before = cursor.backfillOldestMs !== undefined ? cursor.backfillOldestMs + 1000 : cursor.backfillBeforeMs;
      cursor = { ...cursor, backfillPageToken: undefined, backfillBeforeMs: before };
      page = await list(cursor);
    }
    const ids = (page.messages ?? []).map((ref) => ref.id).filter((id) => typeof id === 'string');
    const harvest = await this.harvest(context, ids, 'skip');
    const listed = (cursor.backfillListed ?? 0) + ids.length;
    const estimate = cursor.backfillPageToken === undefined ? (page.resultSizeEstimate ?? cursor.backfillEstimate) : cursor.backfillEstimate;
    const oldest = minDefined(cursor.backfillOldestMs, harvest.oldestMs ?? undefined);
    const done = !page.nextPageToken;
    cursor = { ...cursor, backfillPageToken: page.nextPageToken, backfillListed: listed, backfillEstimate: estimate, backfillOldestMs: oldest, backfillDone: done || undefined };
    const result = await context.sink.commit({
      ingestedVia: 'backfill',
      messages: harvest.messages,
      flagUpdates: [],
      removedProviderKeys: [],
      cursors: [{ folderKey: 'INBOX', deltaToken: encodeGmailCursor(cursor) }],
    });
    const progressPct = done ? 100 : estimate && estimate > 0 ? Math.min(99, Math.round((listed / estimate) * 1000) / 10) : null;
    // Gmail's `resultSizeEstimate` is an estimate: good enough for a progress bar, never for `done`.
    const remaining = done ? 0 : estimate !== undefined ? Math.max(0, estimate - listed) : null;
    return { inserted: result.inserted, done, remaining, oldestAt: oldestAt(cursor), progressPct };
  }

  async resync(context: SyncContext, since: Date): Promise<{ inserted: number; refreshed: number }> {
    let inserted = 0;
    let refreshed = 0;
    let pageToken: string | undefined;
    do {
      if (context.signal.aborted) throw abortReason(context.signal);
      const page = await this.api.listMessages(
        { q: `after:${epochSeconds(since)}`, includeSpamTrash: true, maxResults: this.limits.pageSize, pageToken },
        context.signal,
      );
      const ids = (page.messages ?? []).map((ref) => ref.id);
      const harvest = await this.harvest(context, ids, 'refresh');
      const result = await context.sink.commit({ ingestedVia: 'resync', messages: harvest.messages, flagUpdates: harvest.updates, removedProviderKeys: [], cursors: [] });
      inserted += result.inserted;
      refreshed += harvest.updates.length;
      pageToken = page.nextPageToken;
    } while (pageToken);
    return { inserted, refreshed };
  }

  async fetchContent(message: MessageLocator, options: { part?: string } = {}): Promise<{ content: Buffer; complete: boolean } | null> {
    const timeoutMs = this.limits.timeoutMs * 3;
    try {
      if (options.part) {
        const part = findGmailPart((await this.api.getFull(message.providerKey)).payload, options.part);
        if (!part?.body) return null;
        if (part.body.attachmentId) {
          const content = await this.api.attachment(message.providerKey, part.body.attachmentId, this.limits.maxContentBytes, timeoutMs);
          return content === null ? { content: Buffer.alloc(0), complete: false } : { content, complete: true };
        }
        return { content: typeof part.body.data === 'string' ? Buffer.from(part.body.data, 'base64url') : Buffer.alloc(0), complete: true };
      }
      const answer = await this.api.getRaw(message.providerKey, this.limits.maxContentBytes, undefined, timeoutMs);
      if (answer !== null) return { content: decodeRaw(answer.raw), complete: true };
      // Larger than this instance reads at once: the header block, and parts one by one on demand.
      const metadata = await this.api.getMetadata(message.providerKey);
      return { content: headerBlock(metadata.payload?.headers ?? []), complete: false };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async applyOperation(operation: MailOperationInput, folders: ProviderFolder[]): Promise<AppliedOperation> {
    const messageId = operation.message.providerKey;
    const labelsAdd = await this.resolveLabels(operation.params.labelsAdd ?? [], folders, true);
    const labelsRemove = await this.resolveLabels(operation.params.labelsRemove ?? [], folders, false);
    try {
      let current = await this.api.getMinimal(messageId);
      const plan = planGmailOperation(
        { action: operation.action, fromFolderKey: operation.params.fromFolderKey, toFolderKey: operation.params.toFolderKey, labelsAdd, labelsRemove },
        current.labelIds ?? [],
      );
      if (!plan.ok) throw new ProviderError({ kind: 'permanent', code: 'provider.unsupported_operation', providerCode: plan.reason });
      for (const step of plan.steps) {
        if (step.call === 'delete') {
          await this.api.delete(messageId);
          return { moved: null, removed: true };
        }
        current = await this.runStep(messageId, step);
      }
      const placement = placeMessage(current.labelIds);
      if (placement.folderKey === operation.message.folderKey) return { moved: null, removed: false };
      return { moved: { providerKey: messageId, folderKey: placement.folderKey, uid: null, uidValidity: null }, removed: false };
    } catch (error) {
      // Gone already (deleted elsewhere): nothing left to apply.
      if (isNotFound(error)) return { moved: null, removed: true };
      throw error;
    }
  }

  async close(): Promise<void> {
    // Nothing held: HTTP connections belong to the shared guarded agent.
  }

  private runStep(messageId: string, step: Exclude<GmailStep, { call: 'delete' }>): Promise<GmailMessage> {
    if (step.call === 'trash') return this.api.trash(messageId);
    if (step.call === 'untrash') return this.api.untrash(messageId);
    return this.api.modify(messageId, step.add, step.remove);
  }

  /** Label keys or names → label ids; names that match nothing are created when adding (at most 20). */
  private async resolveLabels(values: string[], folders: ProviderFolder[], create: boolean): Promise<string[]> {
    const ids: string[] = [];
    for (const value of values.slice(0, 20)) {
      const folder = folders.find((item) => item.key === value && isUserLabelId(item.key)) ?? folders.find((item) => item.role === null && item.name === value);
      if (folder && isUserLabelId(folder.key)) ids.push(folder.key);
      else if (create && value.trim().length > 0 && value.length <= 225) {
        const label = await this.api.createLabel(value.trim()).catch(async (error: unknown) => {
          // Created meanwhile (409): find it by name.
          if (!(error instanceof ProviderError && error.code === 'provider.conflict')) throw error;
          return (await this.api.labels()).find((item) => item.name === value.trim()) ?? null;
        });
        if (label?.id) ids.push(label.id);
      }
    }
    return ids;
  }

  private inboxCursor(context: SyncContext): GmailCursor {
    const inbox = context.folders.find((folder) => folder.key === 'INBOX');
    if (!inbox) throw new Error('The Gmail sync needs the folders of listFolders() in the mirror first.');
    return decodeGmailCursor(inbox.deltaToken);
  }

  /**
   * Lists every listed folder's window (`context.initialSince`, at most `initialMaxPerFolder` each),
   * page by page, resuming where each folder stopped. Answers the INBOX cursor with the history id
   * once every folder is done, or null when interrupted.
   */
  private async windowPass(context: SyncContext, mode: 'initial' | 'resync', startFrom?: GmailCursor): Promise<{ inserted: number; inbox: GmailCursor | null }> {
    const present = new Set(context.folders.map((folder) => folder.key));
    const passes: FolderPass[] = listedFolderKeys
      .filter((key) => present.has(key))
      .map((key) => ({ key, cursor: decodeGmailCursor(context.folders.find((folder) => folder.key === key)!.deltaToken) }));
    const inboxPass = passes.find((pass) => pass.key === 'INBOX')!;
    if (startFrom) inboxPass.cursor = startFrom;
    let inserted = 0;

    if (!inboxPass.cursor.passHistoryId) {
      // A new pass: the history position first, then every folder from its first page.
      const profile = await this.api.profile(context.signal);
      if (!profile.historyId || !/^\d{1,30}$/.test(profile.historyId)) throw new ProviderError({ kind: 'permanent', code: 'provider.bad_response', providerCode: 'history_id' });
      for (const pass of passes) pass.cursor = clearPass(pass.cursor);
      inboxPass.cursor = { ...inboxPass.cursor, historyId: undefined, passHistoryId: profile.historyId, passMode: mode };
      await context.sink.commit({ ingestedVia: mode, messages: [], flagUpdates: [], removedProviderKeys: [], cursors: passes.map(cursorOf) });
    }
    const passMode = inboxPass.cursor.passMode ?? mode;
    const cap = Math.max(1, context.initialMaxPerFolder);
    const sinceSeconds = epochSeconds(context.initialSince);

    for (const pass of passes) {
      let retried = false;
      while (!pass.cursor.passDone) {
        if (context.signal.aborted) throw abortReason(context.signal);
        const taken = pass.cursor.passCount ?? 0;
        const query = pass.key === archiveKey ? { q: `${archiveQuery} after:${sinceSeconds}` } : { labelIds: [pass.key], q: `after:${sinceSeconds}` };
        // Gmail lists newest first; the inbox's first page of an initial pass is no longer than the
        // mail list's, so its newest messages are the first batch the member sees.
        const pageSize = pass.key === 'INBOX' && taken === 0 && passMode === 'initial' ? Math.min(this.limits.pageSize, newestFirstCount) : this.limits.pageSize;
        let page;
        try {
          page = await this.api.listMessages(
            { ...query, includeSpamTrash: true, maxResults: Math.max(1, Math.min(pageSize, cap - taken)), pageToken: pass.cursor.passPageToken },
            context.signal,
          );
        } catch (error) {
          if (retried || !pass.cursor.passPageToken || !(error instanceof ProviderError && error.code === 'provider.bad_request')) throw error;
          // The page token expired between runs: list the folder again (known messages are skipped).
          retried = true;
          pass.cursor = { ...pass.cursor, passPageToken: undefined, passCount: 0 };
          continue;
        }
        const ids = (page.messages ?? []).map((ref) => ref.id).slice(0, cap - taken);
        const harvest = await this.harvest(context, ids, passMode === 'resync' ? 'refresh' : 'skip');
        const count = taken + ids.length;
        const capped = count >= cap && Boolean(page.nextPageToken);
        pass.cursor = {
          ...pass.cursor,
          passPageToken: capped ? undefined : page.nextPageToken,
          passCount: count,
          passOldestMs: minDefined(pass.cursor.passOldestMs, harvest.oldestMs ?? undefined),
          passCapped: capped || undefined,
          passDone: !page.nextPageToken || capped || undefined,
        };
        const result = await context.sink.commit({
          ingestedVia: passMode,
          messages: harvest.messages,
          flagUpdates: harvest.updates,
          removedProviderKeys: [],
          cursors: [cursorOf(pass)],
        });
        inserted += result.inserted;
      }
    }

    // Every folder is complete from here on: the backfill starts below the newest such point.
    const completeFrom = Math.max(
      ...passes.map((pass) => (pass.cursor.passCapped && pass.cursor.passOldestMs !== undefined ? pass.cursor.passOldestMs + 1000 : context.initialSince.getTime())),
    );
    const inbox: GmailCursor = {
      ...clearPass(inboxPass.cursor),
      historyId: inboxPass.cursor.passHistoryId,
      backfillBeforeMs: passMode === 'initial' || inboxPass.cursor.backfillBeforeMs === undefined ? completeFrom : inboxPass.cursor.backfillBeforeMs,
    };
    inboxPass.cursor = inbox;
    for (const pass of passes) if (pass !== inboxPass) pass.cursor = clearPass(pass.cursor);
    await context.sink.commit({ ingestedVia: passMode, messages: [], flagUpdates: [], removedProviderKeys: [], cursors: passes.map(cursorOf) });
    return { inserted, inbox };
  }

  /** History pages from the stored id, one batch each. `expired`: the id is too old (404). */
  private async applyHistory(context: SyncContext, start: GmailCursor): Promise<{ inserted: number; expired: boolean; inbox: GmailCursor }> {
    let inbox = start;
    let inserted = 0;
    let pageToken: string | undefined;
    for (let pages = 0; pages < this.limits.maxDeltaPages; pages += 1) {
      if (context.signal.aborted) throw abortReason(context.signal);
      let page;
      try {
        page = await this.api.history(inbox.historyId!, this.limits.deltaPageSize, pageToken, context.signal);
      } catch (error) {
        if (isNotFound(error)) {
          inbox = { ...inbox, historyId: undefined };
          await context.sink.commit({ ingestedVia: 'resync', messages: [], flagUpdates: [], removedProviderKeys: [], cursors: [{ folderKey: 'INBOX', deltaToken: encodeGmailCursor(inbox) }] });
          return { inserted, expired: true, inbox };
        }
        throw error;
      }
      const records = Array.isArray(page.history) ? page.history : [];
      const last = records.at(-1)?.id;
      // The next start: after this page's last record, or the account's position when nothing follows.
      const nextId = page.nextPageToken ? last : (page.historyId ?? last);
      const changes = await this.historyChanges(context, records);
      if (nextId && /^\d{1,30}$/.test(nextId)) inbox = { ...inbox, historyId: nextId };
      const result = await context.sink.commit({
        ingestedVia: 'delta',
        messages: changes.messages,
        flagUpdates: changes.updates,
        removedProviderKeys: changes.removed,
        cursors: [{ folderKey: 'INBOX', deltaToken: encodeGmailCursor(inbox) }],
      });
      inserted += result.inserted;
      if (!page.nextPageToken) break;
      // A page of nothing but a token: follow the token (the id did not move).
      pageToken = records.length === 0 ? page.nextPageToken : undefined;
    }
    return { inserted, expired: false, inbox };
  }

  /** One page of history records → new messages, flag/folder updates and removals. */
  private async historyChanges(context: SyncContext, records: GmailHistoryRecord[]): Promise<{ messages: IncomingMessage[]; updates: FlagUpdate[]; removed: string[] }> {
    const touched = new Map<string, { added: boolean; deleted: boolean; labelIds?: string[] }>();
    const note = (message: GmailMessage | undefined, change: { added?: boolean; deleted?: boolean; labels?: boolean }) => {
      if (!message || typeof message.id !== 'string') return;
      const entry = touched.get(message.id) ?? { added: false, deleted: false };
      if (change.added) entry.added = true;
      if (change.deleted) entry.deleted = true;
      if (Array.isArray(message.labelIds)) entry.labelIds = message.labelIds;
      touched.set(message.id, entry);
    };
    for (const record of records) {
      for (const item of record.messagesAdded ?? []) note(item.message, { added: true });
      for (const item of record.messagesDeleted ?? []) note(item.message, { deleted: true });
      for (const item of record.labelsAdded ?? []) note(item.message, { labels: true });
      for (const item of record.labelsRemoved ?? []) note(item.message, { labels: true });
    }
    const removed = [...touched].filter(([, entry]) => entry.deleted).map(([id]) => id);
    const alive = [...touched].filter(([, entry]) => !entry.deleted);
    const known = context.sink.known ? await context.sink.known(alive.map(([id]) => id)) : null;
    const updates: FlagUpdate[] = [];
    const fetch: string[] = [];
    for (const [id, entry] of alive) {
      const isKnown = known ? known.has(id) : !entry.added;
      // A message new to the mirror: arrived, or an older one moved back into the inbox.
      if (!isKnown && (entry.added || entry.labelIds?.includes('INBOX'))) fetch.push(id);
      if (isKnown || !known) {
        const labelIds = entry.labelIds ?? (await this.minimalLabels(id, context.signal));
        if (labelIds) updates.push(updateOf(id, labelIds));
      }
    }
    const messages = await this.readMessages(context, fetch);
    return { messages, updates, removed };
  }

  private async minimalLabels(id: string, signal: AbortSignal): Promise<string[] | null> {
    try {
      return (await this.api.getMinimal(id, signal)).labelIds ?? [];
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  /**
   * Listed ids → messages to ingest (those the mirror lacks) and, in `refresh` mode, label updates
   * for those it holds.
   */
  private async harvest(context: SyncContext, ids: string[], known: 'skip' | 'refresh'): Promise<Harvest> {
    const held = context.sink.known && ids.length > 0 ? await context.sink.known(ids) : new Set<string>();
    const messages = await this.readMessages(
      context,
      ids.filter((id) => !held.has(id)),
    );
    const updates: FlagUpdate[] = [];
    if (known === 'refresh') {
      const labels = await mapLimit([...held], this.limits.concurrency, (id) => this.minimalLabels(id, context.signal));
      [...held].forEach((id, index) => {
        const labelIds = labels[index];
        if (labelIds) updates.push(updateOf(id, labelIds));
      });
    }
    let oldestMs: number | null = null;
    for (const message of messages) {
      const at = message.internalDate?.getTime();
      if (at !== undefined && (oldestMs === null || at < oldestMs)) oldestMs = at;
    }
    return { messages, updates, oldestMs };
  }

  private async readMessages(context: SyncContext, ids: string[]): Promise<IncomingMessage[]> {
    const read = await mapLimit(ids, this.limits.concurrency, (id) => this.readMessage(id, context));
    return read.filter((message): message is IncomingMessage => message !== null);
  }

  /** One message for the sink: raw source, or the header block when too large / processing only. Null when gone. */
  private async readMessage(id: string, context: SyncContext): Promise<IncomingMessage | null> {
    if (context.signal.aborted) throw abortReason(context.signal);
    try {
      let message: GmailMessage | null = null;
      if (context.syncMode === 'full') message = await this.api.getRaw(id, this.limits.maxSourceBytes, context.signal);
      let source: Buffer;
      let complete = true;
      if (message?.raw !== undefined) {
        source = decodeRaw(message.raw);
      } else {
        message = await this.api.getMetadata(id, context.signal);
        source = headerBlock(message.payload?.headers ?? []);
        complete = false;
      }
      const placement = placeMessage(message.labelIds);
      const internal = Number(message.internalDate);
      return {
        providerKey: message.id ?? id,
        folderKey: placement.folderKey,
        labels: placement.labels,
        uid: null,
        uidValidity: null,
        modseq: message.historyId && /^\d{1,19}$/.test(message.historyId) ? BigInt(message.historyId) : null,
        flags: placement.flags,
        internalDate: Number.isFinite(internal) && internal > 0 ? new Date(internal) : null,
        size: typeof message.sizeEstimate === 'number' && message.sizeEstimate >= 0 ? message.sizeEstimate : source.length,
        source,
        sourceComplete: complete,
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }
}

function decodeRaw(raw: string | undefined): Buffer {
  if (typeof raw !== 'string') throw new ProviderError({ kind: 'permanent', code: 'provider.bad_response', providerCode: 'raw_missing' });
  return Buffer.from(raw, 'base64url');
}

function updateOf(id: string, labelIds: string[]): FlagUpdate {
  const placement = placeMessage(labelIds);
  return { providerKey: id, flags: placement.flags, labels: placement.labels, folderKey: placement.folderKey };
}

function clearPass(cursor: GmailCursor): GmailCursor {
  return { ...cursor, passHistoryId: undefined, passMode: undefined, passPageToken: undefined, passCount: undefined, passOldestMs: undefined, passCapped: undefined, passDone: undefined };
}

function cursorOf(pass: FolderPass): { folderKey: string; deltaToken: string } {
  return { folderKey: pass.key, deltaToken: encodeGmailCursor(pass.cursor) };
}

function minDefined(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}
