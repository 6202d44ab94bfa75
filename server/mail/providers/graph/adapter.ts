/**
 * The `mail_provider_b` adapter: a Microsoft-Graph-compatible account as a MailProviderAdapter
 * (server/mail/provider.ts). Folders are Graph mail folders (./folders.ts); `providerKey` is the
 * Graph message id, asked for as an immutable id so it survives moves.
 *
 * - Per folder, a delta round (`mailFolders/{id}/messages/delta`, `Prefer: odata.maxpagesize`) pages
 *   through `@odata.nextLink` to an `@odata.deltaLink`; every page is one batch committed with the
 *   link that follows it (./cursor.ts), so a killed run resumes at the next page. The first round is
 *   the initial sync: it is filtered to the folder's window, which starts at `initialSince` or, when
 *   the folder holds more than `initialMaxPerFolder` messages since then, at the receive time of the
 *   last one of those (listed newest first beforehand), so the cap costs no skipped message.
 * - A delta entry the mirror lacks is fetched (`$value`, MIME) and ingested; a known one is a flag
 *   update (isRead, flag, isDraft, categories as labels) with this folder as its place (under
 *   immutable ids a move shows as an entry in the new folder). An `@removed` entry is checked: still
 *   at Graph in another mirrored folder → moved there; otherwise removed.
 * - 410 (the delta state expired) restarts the folder's round in `resync` mode: known messages are
 *   refreshed, missing ones ingested silently, nothing duplicated.
 * - Backfill lists each folder below its window start, newest first, a slice at a time.
 * - Operations: ./plan.ts. A move answers the message under its id after the move (new without
 *   immutable ids).
 */
import { config } from '../../../core/config';
import {
  newestFirstCount,
  runTimeIsUp,
  type AppliedOperation,
  type BackfillOutcome,
  type FlagUpdate,
  type IncomingMessage,
  type IngestedVia,
  type MailOperationInput,
  type MailProviderAdapter,
  type MessageLocator,
  type ProviderFolder,
  type SyncContext,
  type SyncOutcome,
} from '../../provider';
import type { AccessTokenSource, ProviderFetch } from '../http-client';
import { accountBudget, accountSlots, type ProviderQuota } from '../call-budget';
import { providerLimits, type ProviderLimits } from '../limits';
import { isNotFound, ProviderError } from '../provider-errors';
import { abortReason, headerBlock, mapLimit } from '../shared';
import { GraphApi, messageFields, odataDate, type GraphMessage, type GraphPage } from './api';
import { decodeGraphCursor, encodeGraphCursor, type GraphCursor } from './cursor';
import { folderLimits, foldersFromGraph, wellKnownNames, type GraphFolder } from './folders';
import { mergeCategories, planGraphOperation } from './plan';

export interface GraphAdapterOptions {
  mailboxId: string;
  address: string;
  /** API root; default `MAIL_PROVIDER_B_API_URL`. */
  baseUrl?: string;
  accessToken: AccessTokenSource;
  fetch?: ProviderFetch;
  /** Private hosts allowed; default `MAIL_ALLOW_PRIVATE_HOSTS`. */
  allowPrivate?: boolean;
  limits?: Partial<ProviderLimits>;
  /** The account's quota; default the instance's setting for the provider. */
  quota?: ProviderQuota;
  /**
   * Whether each exchange holds one of the account's 4 concurrent requests in the database, shared with every
   * process (call-slots.ts). Default true; false leaves only this adapter's own bound (a test's control case).
   */
  sharedConcurrency?: boolean;
}

type MirrorFolder = SyncContext['folders'][number];

const maxLabels = 100;

export function createGraphAdapter(options: GraphAdapterOptions): MailProviderAdapter {
  return new GraphAdapter(options);
}

class GraphAdapter implements MailProviderAdapter {
  readonly provider = 'mail_provider_b' as const;
  private readonly api: GraphApi;
  private readonly limits: ProviderLimits;
  /** Graph folder id → well-known name. */
  private readonly wellKnown = new Map<string, string>();

  constructor(options: GraphAdapterOptions) {
    this.limits = providerLimits(options.limits);
    this.api = new GraphApi({
      baseUrl: options.baseUrl ?? config().MAIL_PROVIDER_B_API_URL,
      accessToken: options.accessToken,
      fetch: options.fetch,
      allowPrivate: options.allowPrivate,
      timeoutMs: this.limits.timeoutMs,
      budget: accountBudget('mail_provider_b', options, options.quota),
      slots: options.sharedConcurrency === false ? undefined : accountSlots('mail_provider_b', options),
    });
  }

  async listFolders(): Promise<ProviderFolder[]> {
    // Well-known folders keep their ids: asked once per adapter, a missing one again on each listing.
    for (const name of wellKnownNames) {
      if ([...this.wellKnown.values()].includes(name)) continue;
      try {
        this.wellKnown.set((await this.api.folder(name)).id, name);
      } catch (error) {
        if (!isNotFound(error)) throw error; // an account without an archive folder, say
      }
    }
    const wellKnown = this.wellKnown;
    const read: { folder: GraphFolder; depth: number }[] = [];
    let level: (string | null)[] = [null];
    for (let depth = 0; depth < folderLimits.maxDepth && level.length > 0; depth += 1) {
      const nextLevel: string[] = [];
      for (const parent of level) {
        let link: string | undefined;
        do {
          const page = await this.api.folders(parent, link);
          for (const folder of page.value ?? []) {
            if (typeof folder?.id !== 'string' || read.length >= folderLimits.maxFolders) continue;
            read.push({ folder, depth });
            if ((folder.childFolderCount ?? 0) > 0) nextLevel.push(folder.id);
          }
          link = read.length < folderLimits.maxFolders ? page['@odata.nextLink'] : undefined;
        } while (link);
      }
      level = nextLevel;
    }
    // A well-known folder no longer listed (deleted, recreated): ask for it again next time.
    const listedIds = new Set(read.map((entry) => entry.folder.id));
    const folders = foldersFromGraph(read, wellKnown);
    for (const id of [...wellKnown.keys()]) if (!listedIds.has(id)) wellKnown.delete(id);
    return folders;
  }

  async syncDelta(context: SyncContext): Promise<SyncOutcome> {
    let inserted = 0;
    let initialComplete = true;
    for (const folder of syncedFolders(context)) {
      const outcome = await this.syncFolder(context, folder);
      inserted += outcome.inserted;
      if (!outcome.roundDone) initialComplete = false;
    }
    return { inserted, initialComplete };
  }

  async backfill(context: SyncContext, options: { since: Date | null; sliceSize: number; until?: number }): Promise<BackfillOutcome> {
    const sinceMs = options.since?.getTime() ?? -1;
    let budget = Math.max(1, Math.min(1000, options.sliceSize));
    let inserted = 0;
    /** Pages read this run: past `until`, none after the first (a page's messages are fetched one call each). */
    let pages = 0;
    const states: GraphCursor[] = [];
    for (const folder of syncedFolders(context)) {
      let cursor = decodeGraphCursor(folder.deltaToken);
      const windowMs = cursor.windowMs;
      // The folder's first round is not done yet: its window is not settled.
      if (windowMs === undefined || cursor.mode !== undefined) return { inserted, done: false, remaining: null, oldestAt: null, progressPct: null };
      if (cursor.backfillSinceMs !== sinceMs) {
        cursor = { ...cursor, backfillSinceMs: sinceMs, backfillNext: undefined, backfillListed: 0, backfillTotal: undefined, backfillDone: undefined };
      }
      while (!cursor.backfillDone && budget > 0) {
        if (context.signal.aborted) throw abortReason(context.signal);
        if (runTimeIsUp(options.until, pages)) break;
        pages += 1;
        // Below the window, or just above the oldest seen when a new request resumes (the overlap is known).
        const before = cursor.backfillOldestMs === undefined ? windowMs : Math.min(windowMs, cursor.backfillOldestMs + 1000);
        const filter = `receivedDateTime lt ${odataDate(new Date(before))}${options.since ? ` and receivedDateTime ge ${odataDate(options.since)}` : ''}`;
        const page = await this.api.messages(
          folder.providerId!,
          { filter, top: Math.min(budget, this.limits.pageSize), count: true, link: cursor.backfillNext },
          context.signal,
        );
        const entries = (page.value ?? []).filter((entry) => typeof entry?.id === 'string');
        const harvest = await this.harvest(context, folder, entries, 'skip');
        cursor = {
          ...cursor,
          backfillNext: page['@odata.nextLink'],
          backfillListed: (cursor.backfillListed ?? 0) + entries.length,
          backfillTotal: typeof page['@odata.count'] === 'number' ? page['@odata.count'] : cursor.backfillTotal,
          backfillOldestMs: minDefined(cursor.backfillOldestMs, oldestOf(entries)),
          backfillDone: page['@odata.nextLink'] ? undefined : true,
        };
        const result = await context.sink.commit({
          ingestedVia: 'backfill',
          messages: harvest.messages,
          flagUpdates: [],
          removedProviderKeys: [],
          cursors: [{ folderKey: folder.key, deltaToken: encodeGraphCursor(cursor) }],
        });
        inserted += result.inserted;
        budget -= Math.max(1, entries.length);
      }
      states.push(cursor);
    }
    const done = states.every((state) => state.backfillDone);
    const shares = states.map((state) => (state.backfillDone ? 1 : state.backfillTotal ? Math.min(1, (state.backfillListed ?? 0) / state.backfillTotal) : 0));
    const progressPct = done ? 100 : shares.length > 0 ? Math.min(99, Math.round((shares.reduce((sum, share) => sum + share, 0) / shares.length) * 1000) / 10) : null;
    const oldest = states.reduce<number | undefined>((min, state) => minDefined(min, state.backfillOldestMs), undefined);
    const remainders = states.map((state) => (state.backfillDone ? 0 : state.backfillTotal !== undefined ? Math.max(0, state.backfillTotal - (state.backfillListed ?? 0)) : null));
    const remaining = remainders.some((value) => value === null) ? null : remainders.reduce<number>((sum, value) => sum + value!, 0);
    return { inserted, done, remaining, oldestAt: oldest !== undefined ? new Date(oldest) : null, progressPct };
  }

  async resync(context: SyncContext, since: Date): Promise<{ inserted: number; refreshed: number }> {
    let inserted = 0;
    let refreshed = 0;
    for (const folder of syncedFolders(context)) {
      let link: string | undefined;
      do {
        if (context.signal.aborted) throw abortReason(context.signal);
        const page = await this.api.messages(folder.providerId!, { filter: `receivedDateTime ge ${odataDate(since)}`, top: this.limits.pageSize, link }, context.signal);
        const harvest = await this.harvest(context, folder, (page.value ?? []).filter((entry) => typeof entry?.id === 'string'), 'refresh');
        const result = await context.sink.commit({ ingestedVia: 'resync', messages: harvest.messages, flagUpdates: harvest.updates, removedProviderKeys: [], cursors: [] });
        inserted += result.inserted;
        refreshed += harvest.updates.length;
        link = page['@odata.nextLink'];
      } while (link);
    }
    return { inserted, refreshed };
  }

  /**
   * The MIME source, cut at `maxContentBytes` (`complete: false`). A single MIME part (`part`) is not
   * addressable in Graph by its MIME number: null (the caller falls back to what the mirror has).
   */
  async fetchContent(message: MessageLocator, options: { part?: string } = {}): Promise<{ content: Buffer; complete: boolean } | null> {
    if (options.part) return null;
    try {
      const source = await this.api.mime(message.providerKey, this.limits.maxContentBytes, { timeoutMs: this.limits.timeoutMs * 3, cut: true });
      return source ? { content: source.bytes, complete: !source.cut } : null;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async applyOperation(operation: MailOperationInput, folders: ProviderFolder[]): Promise<AppliedOperation> {
    const id = operation.message.providerKey;
    const plan = planGraphOperation(
      { action: operation.action, toFolderKey: operation.params.toFolderKey, labelsAdd: operation.params.labelsAdd, labelsRemove: operation.params.labelsRemove },
      folders,
    );
    try {
      switch (plan.call) {
        case 'unsupported':
          throw new ProviderError({ kind: 'permanent', code: 'provider.unsupported_operation', providerCode: operation.action });
        case 'delete':
          await this.api.delete(id);
          return { moved: null, removed: true };
        case 'patch':
          await this.api.patch(id, plan.body);
          return { moved: null, removed: false };
        case 'categories': {
          const current = await this.api.message(id, 'id,categories');
          const categories = mergeCategories(current.categories ?? [], plan.add, plan.remove);
          await this.api.patch(id, { categories });
          return { moved: null, removed: false };
        }
        case 'move': {
          const current = await this.api.message(id, 'id,parentFolderId').catch(async (error: unknown) => {
            if (!isNotFound(error)) throw error;
            // Gone under this id: moved before (a retry after a crash, ids not immutable)? Look in the destination.
            const found = await this.findByMessageId(plan.destinationId, operation.message.messageIdHeader);
            if (found) return found;
            throw error;
          });
          // Already there (a retried operation): moving again would make a copy-like new id for nothing.
          const destination = folders.find((folder) => folder.key === plan.destinationKey);
          if (current.parentFolderId === plan.destinationId || (destination && current.parentFolderId === destination.providerId)) {
            const unchanged = current.id === id && operation.message.folderKey === plan.destinationKey;
            return unchanged ? { moved: null, removed: false } : { moved: locator(current.id, plan.destinationKey), removed: false };
          }
          const moved = await this.api.move(id, plan.destinationId);
          const key = folders.find((folder) => folder.providerId === moved.parentFolderId)?.key ?? plan.destinationKey;
          return { moved: locator(typeof moved.id === 'string' ? moved.id : id, key), removed: false };
        }
      }
    } catch (error) {
      if (isNotFound(error)) return { moved: null, removed: true };
      throw error;
    }
  }

  async close(): Promise<void> {
    // Nothing held: HTTP connections belong to the shared guarded agent.
  }

  /** The message with this Message-ID in a folder (given by id or well-known name), or null. */
  private async findByMessageId(folderId: string, messageIdHeader: string | null | undefined): Promise<GraphMessage | null> {
    if (!messageIdHeader || messageIdHeader.length > 500) return null;
    const literal = messageIdHeader.replaceAll("'", "''");
    const page = await this.api.messages(folderId, { filter: `internetMessageId eq '${literal}'`, top: 2, select: 'id,parentFolderId', orderBy: null });
    const hits = (page.value ?? []).filter((entry) => typeof entry?.id === 'string');
    return hits.length === 1 ? hits[0] : null;
  }

  /** Runs the folder's delta round (or starts one) for at most `maxDeltaPages` pages. */
  private async syncFolder(context: SyncContext, folder: MirrorFolder): Promise<{ inserted: number; roundDone: boolean }> {
    let cursor = decodeGraphCursor(folder.deltaToken);
    let inserted = 0;
    let restarted = false;
    for (let pages = 0; pages < this.limits.maxDeltaPages; pages += 1) {
      if (context.signal.aborted) throw abortReason(context.signal);
      let filter: string | undefined;
      let pageSize = this.limits.deltaPageSize;
      if (!cursor.next && !cursor.delta) {
        // A first round: fix the folder's window before it starts.
        const mode = cursor.mode ?? 'initial';
        const windowMs = cursor.windowMs !== undefined && mode === 'resync' ? cursor.windowMs : await this.windowStart(context, folder);
        cursor = { ...cursor, mode, windowMs };
        filter = `receivedDateTime ge ${odataDate(new Date(windowMs))}`;
        // Newest first (the round's links keep the order), and the inbox's first page no longer than
        // the mail list's: its newest messages are the first batch the member sees.
        if (mode === 'initial' && folder.role === 'inbox') pageSize = Math.min(pageSize, newestFirstCount);
      }
      let page: GraphPage<GraphMessage>;
      try {
        page = await this.api.delta(folder.providerId!, { link: cursor.next ?? cursor.delta, filter, newestFirst: filter !== undefined, pageSize }, context.signal);
      } catch (error) {
        if (restarted || !(error instanceof ProviderError && (error.code === 'provider.gone' || isSyncStateError(error)))) throw error;
        // The delta state expired: read the folder's window again from scratch.
        restarted = true;
        cursor = { ...cursor, next: undefined, delta: undefined, mode: 'resync' };
        continue;
      }
      const via: IngestedVia = cursor.mode ?? 'delta';
      const changes = await this.deltaChanges(context, folder, page.value ?? [], via);
      const nextLink = page['@odata.nextLink'];
      const deltaLink = page['@odata.deltaLink'];
      if (!nextLink && !deltaLink) throw new ProviderError({ kind: 'permanent', code: 'provider.bad_response', providerCode: 'delta_without_link' });
      cursor = nextLink ? { ...cursor, next: nextLink, delta: undefined } : { ...cursor, next: undefined, delta: deltaLink, mode: undefined };
      const result = await context.sink.commit({
        ingestedVia: via,
        messages: changes.messages,
        flagUpdates: changes.updates,
        removedProviderKeys: changes.removed,
        cursors: [{ folderKey: folder.key, deltaToken: encodeGraphCursor(cursor) }],
      });
      inserted += result.inserted;
      if (!nextLink) return { inserted, roundDone: true };
    }
    return { inserted, roundDone: cursor.mode === undefined };
  }

  /** `initialSince`, or later when the folder has more than `initialMaxPerFolder` messages since then. */
  private async windowStart(context: SyncContext, folder: MirrorFolder): Promise<number> {
    const since = context.initialSince.getTime();
    const cap = Math.max(1, context.initialMaxPerFolder);
    let seen = 0;
    let link: string | undefined;
    do {
      if (context.signal.aborted) throw abortReason(context.signal);
      const page = await this.api.messages(
        folder.providerId!,
        { filter: `receivedDateTime ge ${odataDate(context.initialSince)}`, top: Math.min(1000, cap), select: 'id,receivedDateTime', link },
        context.signal,
      );
      const entries = page.value ?? [];
      for (const [index, entry] of entries.entries()) {
        seen += 1;
        if (seen === cap) {
          // More after the cap-th message: the window starts at its receive time.
          const more = index < entries.length - 1 || Boolean(page['@odata.nextLink']);
          const at = Date.parse(entry.receivedDateTime ?? '');
          return more && Number.isFinite(at) ? Math.max(since, at) : since;
        }
      }
      link = page['@odata.nextLink'];
    } while (link);
    return since;
  }

  /** One delta page → new messages, flag/folder updates, removals. */
  private async deltaChanges(
    context: SyncContext,
    folder: MirrorFolder,
    entries: GraphMessage[],
    via: IngestedVia,
  ): Promise<{ messages: IncomingMessage[]; updates: FlagUpdate[]; removed: string[] }> {
    const valid = entries.filter((entry) => typeof entry?.id === 'string');
    const gone = valid.filter((entry) => entry['@removed'] !== undefined);
    const present = valid.filter((entry) => entry['@removed'] === undefined);
    // The first round skips what a killed run already mirrored; later rounds refresh what changed.
    const harvest = await this.harvest(context, folder, present, via === 'initial' ? 'skip' : 'refresh');
    const removed: string[] = [];
    const updates = [...harvest.updates];
    const movedHere = new Set(present.map((entry) => entry.id));
    // A removal from this folder: deleted, or moved (the same id elsewhere under immutable ids).
    const checked = await mapLimit(
      gone.filter((entry) => !movedHere.has(entry.id)),
      this.limits.concurrency,
      async (entry) => {
        try {
          return { id: entry.id, now: await this.api.message(entry.id, messageFields, context.signal) };
        } catch (error) {
          if (isNotFound(error)) return { id: entry.id, now: null };
          throw error;
        }
      },
    );
    for (const { id, now } of checked) {
      const target = now ? context.folders.find((item) => item.providerId === now.parentFolderId && item.providerId !== folder.providerId) : undefined;
      if (now && target) updates.push(updateOf(now, target));
      else if (!now || !context.folders.some((item) => item.providerId === now.parentFolderId)) removed.push(id);
    }
    return { messages: harvest.messages, updates, removed };
  }

  /**
   * Listed or delta entries of one folder → messages to ingest (those the mirror lacks) and, in
   * `refresh` mode, flag/folder updates for those it holds.
   */
  private async harvest(
    context: SyncContext,
    folder: MirrorFolder,
    entries: GraphMessage[],
    known: 'skip' | 'refresh',
  ): Promise<{ messages: IncomingMessage[]; updates: FlagUpdate[] }> {
    if (entries.length === 0) return { messages: [], updates: [] };
    const held = context.sink.known ? await context.sink.known(entries.map((entry) => entry.id)) : null;
    const fresh = held ? entries.filter((entry) => !held.has(entry.id)) : entries;
    const read = await mapLimit(fresh, this.limits.concurrency, (entry) => this.readMessage(context, folder, entry));
    const updates = known === 'refresh' ? entries.filter((entry) => !held || held.has(entry.id)).map((entry) => updateOf(entry, folder)) : [];
    return { messages: read.filter((message): message is IncomingMessage => message !== null), updates };
  }

  /** One message for the sink: MIME, or the header block when too large / processing only. Null when gone. */
  private async readMessage(context: SyncContext, folder: MirrorFolder, entry: GraphMessage): Promise<IncomingMessage | null> {
    if (context.signal.aborted) throw abortReason(context.signal);
    try {
      let source = context.syncMode === 'full' ? ((await this.api.mime(entry.id, this.limits.maxSourceBytes, { signal: context.signal }))?.bytes ?? null) : null;
      const complete = source !== null;
      if (source === null) source = headerBlock((await this.api.message(entry.id, 'id,internetMessageHeaders', context.signal)).internetMessageHeaders ?? []);
      const received = Date.parse(entry.receivedDateTime ?? '');
      return {
        providerKey: entry.id,
        folderKey: folder.key,
        labels: labelsOf(entry),
        uid: null,
        uidValidity: null,
        modseq: null,
        flags: flagsOf(entry, folder),
        internalDate: Number.isFinite(received) ? new Date(received) : null,
        size: source.length,
        source,
        sourceComplete: complete,
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }
}

/** Folders the sync reads: the mirrored ones with a Graph id, the inbox first. */
function syncedFolders(context: SyncContext): MirrorFolder[] {
  const folders = context.folders.filter((folder) => folder.selectable && folder.providerId);
  return [...folders.filter((folder) => folder.role === 'inbox'), ...folders.filter((folder) => folder.role !== 'inbox')];
}

function isSyncStateError(error: ProviderError): boolean {
  return error.httpStatus === 400 && /syncstate|resyncrequired/i.test(error.providerCode ?? '');
}

function flagsOf(entry: GraphMessage, folder: Pick<ProviderFolder, 'role'>) {
  return { seen: entry.isRead === true, flagged: entry.flag?.flagStatus === 'flagged', draft: entry.isDraft === true, sent: folder.role === 'sent' };
}

function labelsOf(entry: GraphMessage): string[] {
  return Array.isArray(entry.categories) ? entry.categories.filter((value) => typeof value === 'string' && value.length > 0 && value.length <= 255).slice(0, maxLabels) : [];
}

function updateOf(entry: GraphMessage, folder: Pick<ProviderFolder, 'key' | 'role'>): FlagUpdate {
  return { providerKey: entry.id, flags: flagsOf(entry, folder), labels: labelsOf(entry), folderKey: folder.key };
}

function locator(providerKey: string, folderKey: string): MessageLocator {
  return { providerKey, folderKey, uid: null, uidValidity: null };
}

function oldestOf(entries: GraphMessage[]): number | undefined {
  let oldest: number | undefined;
  for (const entry of entries) {
    const at = Date.parse(entry.receivedDateTime ?? '');
    if (Number.isFinite(at) && (oldest === undefined || at < oldest)) oldest = at;
  }
  return oldest;
}

function minDefined(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}
