/**
 * The IMAP provider adapter (../../provider.ts): one logged-in imapflow connection per run, used
 * for listing folders, the delta, backfill and resync slices, the body pass, on-demand content and webmail
 * operations; IDLE watches run on a connection of their own.
 */
import type { ImapFlow, ImapFlowOptions } from 'imapflow';
import type {
  AppliedOperation,
  BackfillOutcome,
  MailOperationInput,
  MailProviderAdapter,
  MessageLocator,
  PendingBody,
  ProviderFolder,
  SyncContext,
  SyncOutcome,
  WatchChange,
  WatchHandle,
  WatchOptions,
} from '../../provider';
import { runTimeIsUp } from '../../provider';
import { SyncError } from '../../sync-errors';
import { processingOnlyFetchBytes } from '../../sync-mode';
import { closeImap, fullFetchBytes, openImapClient, type ImapMailboxSource } from './connect';
import { defaultBatchLimits, type BatchLimits } from './fetch-batches';
import { labelToKeyword } from './flags';
import { folderRows, isSyncedFolder } from './folders';
import { fillBodies } from './bodies';
import { backfillFolder, resyncFolder, syncFolder, type FolderState } from './folder-sync';
import { imapProviderKey, parseImapProviderKey } from './provider-key';
import { watchImap } from './watch';

/** Where each move-like action goes when the operation names no folder. */
const actionTargets: Record<string, ProviderFolder['role']> = {
  archive: 'archive',
  unarchive: 'inbox',
  trash: 'trash',
  restore: 'inbox',
  spam: 'spam',
  notSpam: 'inbox',
};

/** INBOX first: new mail there is what members wait for. */
function syncOrder(folders: FolderState[]): FolderState[] {
  return folders.filter(isSyncedFolder).sort((a, b) => Number(b.role === 'inbox') - Number(a.role === 'inbox'));
}

export interface ImapAdapterOptions {
  limits?: Partial<BatchLimits>;
  /** imapflow options over the defaults (tests: a server seen without CONDSTORE/QRESYNC). */
  imap?: Partial<ImapFlowOptions>;
}

export class ImapAdapter implements MailProviderAdapter {
  readonly provider = 'imap' as const;
  private readonly limits: BatchLimits;

  private readonly imapOverrides: Partial<ImapFlowOptions>;

  private constructor(
    private readonly source: ImapMailboxSource,
    private readonly client: ImapFlow,
    readonly secret: string,
    options: ImapAdapterOptions,
  ) {
    this.limits = { ...defaultBatchLimits, ...options.limits };
    this.imapOverrides = options.imap ?? {};
  }

  static async open(source: ImapMailboxSource, options: ImapAdapterOptions & { syncMode?: 'full' | 'processing_only' } = {}): Promise<ImapAdapter> {
    const { client, secret } = await openImapClient(source, options.imap);
    const fetchBytes = options.syncMode === 'processing_only' ? processingOnlyFetchBytes : fullFetchBytes;
    return new ImapAdapter(source, client, secret, { ...options, limits: { fetchBytes, ...options.limits } });
  }

  /** Whether the connection still works (the orchestrator reconnects otherwise). */
  get usable(): boolean {
    return this.client.usable;
  }

  async listFolders(): Promise<ProviderFolder[]> {
    return folderRows(await this.client.list());
  }

  async syncDelta(context: SyncContext): Promise<SyncOutcome> {
    let inserted = 0;
    let initialComplete = true;
    for (const folder of syncOrder(context.folders)) {
      if (context.signal.aborted) return { inserted, initialComplete: false };
      try {
        const result = await syncFolder(this.client, context, folder, this.limits);
        inserted += result.inserted;
        initialComplete &&= result.initialComplete;
      } catch (error) {
        // A folder deleted between LIST and SELECT: the next folder listing drops it.
        if ((error as { mailboxMissing?: boolean }).mailboxMissing) continue;
        throw error;
      }
    }
    return { inserted, initialComplete };
  }

  async backfill(context: SyncContext, options: { since: Date | null; sliceSize: number; until?: number }): Promise<BackfillOutcome> {
    let inserted = 0;
    let remaining = 0;
    let budget = options.sliceSize;
    /** UIDs fetched so far this run: past `until`, the folders after the first that fetched are only counted. */
    let fetched = 0;
    for (const folder of syncOrder(context.folders)) {
      if (context.signal.aborted) break;
      const timeUp = runTimeIsUp(options.until, fetched);
      try {
        const result = await backfillFolder(this.client, context, folder, this.limits, { since: options.since, max: timeUp ? 0 : Math.max(budget, 0), until: options.until });
        inserted += result.inserted;
        remaining += result.remaining;
        budget -= result.inserted;
        fetched += result.fetched;
      } catch (error) {
        if ((error as { mailboxMissing?: boolean }).mailboxMissing) continue;
        throw error;
      }
    }
    return { inserted, done: remaining === 0, remaining, oldestAt: null, progressPct: null };
  }

  async resync(context: SyncContext, since: Date): Promise<{ inserted: number; refreshed: number }> {
    let inserted = 0;
    let refreshed = 0;
    for (const folder of syncOrder(context.folders)) {
      if (context.signal.aborted) break;
      try {
        const result = await resyncFolder(this.client, context, folder, this.limits, since);
        inserted += result.inserted;
        refreshed += result.refreshed;
      } catch (error) {
        if ((error as { mailboxMissing?: boolean }).mailboxMissing) continue;
        throw error;
      }
    }
    return { inserted, refreshed };
  }

  async fillBodies(context: SyncContext, pending: PendingBody[], options: { until?: number } = {}): Promise<{ filled: number }> {
    return fillBodies(this.client, context.sink, this.limits, pending, context.signal, options.until);
  }

  async fetchContent(message: MessageLocator, options: { part?: string } = {}): Promise<{ content: Buffer; complete: boolean } | null> {
    const located = parseImapProviderKey(message.providerKey);
    if (!located) return null;
    const box = await this.client.mailboxOpen(located.folderKey, { readOnly: true });
    if (box.uidValidity !== located.uidValidity) return null;
    const uid = String(located.uid);
    if (options.part) {
      const download = await this.client.download(uid, options.part, { uid: true, maxBytes: fullFetchBytes + 1 });
      if (!download?.content) return null;
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of download.content as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > fullFetchBytes) return { content: Buffer.concat(chunks), complete: false };
        chunks.push(chunk);
      }
      return { content: Buffer.concat(chunks), complete: true };
    }
    const found = await this.client.fetchOne(uid, { uid: true, size: true, source: { start: 0, maxLength: fullFetchBytes } }, { uid: true });
    if (!found || !found.source) return null;
    return { content: found.source, complete: (found.size ?? found.source.length) <= fullFetchBytes };
  }

  async applyOperation(operation: MailOperationInput, folders: ProviderFolder[]): Promise<AppliedOperation> {
    const located = parseImapProviderKey(operation.message.providerKey);
    if (!located) return { moved: null, removed: true };
    const box = await this.client.mailboxOpen(located.folderKey);
    // Another generation of the folder: this message's identity is gone (the delta resets the folder).
    if (box.uidValidity !== located.uidValidity) return { moved: null, removed: true };
    const uid = Number(located.uid);
    const range = String(uid);
    const target = this.moveTarget(operation, folders);
    const present = ((await this.client.search({ uid: range }, { uid: true })) || []).includes(uid);
    if (!present) {
      // Applied before (a retry after a crash) or removed by someone else.
      if (target && target.key !== located.folderKey) {
        const found = await this.findByMessageId(target.key, operation.message.messageIdHeader);
        if (found) return { moved: found, removed: false };
      }
      return { moved: null, removed: true };
    }
    switch (operation.action) {
      case 'markRead':
        await this.client.messageFlagsAdd(range, ['\\Seen'], { uid: true });
        return { moved: null, removed: false };
      case 'markUnread':
        await this.client.messageFlagsRemove(range, ['\\Seen'], { uid: true });
        return { moved: null, removed: false };
      case 'flag':
        await this.client.messageFlagsAdd(range, ['\\Flagged'], { uid: true });
        return { moved: null, removed: false };
      case 'unflag':
        await this.client.messageFlagsRemove(range, ['\\Flagged'], { uid: true });
        return { moved: null, removed: false };
      case 'labels': {
        const add = (operation.params.labelsAdd ?? []).map(labelToKeyword);
        const remove = (operation.params.labelsRemove ?? []).map(labelToKeyword);
        if (add.length > 0) await this.client.messageFlagsAdd(range, add, { uid: true });
        if (remove.length > 0) await this.client.messageFlagsRemove(range, remove, { uid: true });
        return { moved: null, removed: false };
      }
      case 'deletePermanently':
        await this.client.messageDelete(range, { uid: true });
        return { moved: null, removed: true };
      default:
        break;
    }
    if (!target) throw new SyncError({ kind: 'protocol', code: 'webmail.unsupported_action', message: `The action ${operation.action} has no folder to move to.` });
    if (target.key === located.folderKey) return { moved: null, removed: false };
    if (!target.selectable) await this.createFolder(target.key);
    const result = await this.client.messageMove(range, target.key, { uid: true });
    if (!result) throw new SyncError({ kind: 'protocol', code: 'imap.unreachable', message: 'The server refused to move the message.' });
    const newUid = result.uidMap?.get(uid);
    if (newUid !== undefined && result.uidValidity !== undefined) {
      return { moved: { providerKey: imapProviderKey(target.key, result.uidValidity, newUid), folderKey: target.key, uid: BigInt(newUid), uidValidity: result.uidValidity }, removed: false };
    }
    // No COPYUID (a server without UIDPLUS): find it by Message-ID.
    const found = await this.findByMessageId(target.key, operation.message.messageIdHeader);
    return found ? { moved: found, removed: false } : { moved: null, removed: true };
  }

  private moveTarget(operation: MailOperationInput, folders: ProviderFolder[]): ProviderFolder | null {
    const named = operation.params.toFolderKey;
    if (named) return folders.find((folder) => folder.key === named) ?? null;
    const role = Object.hasOwn(actionTargets, operation.action) ? actionTargets[operation.action] : undefined;
    return role ? (folders.find((folder) => folder.role === role) ?? null) : null;
  }

  private async createFolder(path: string): Promise<void> {
    try {
      await this.client.mailboxCreate(path);
    } catch (error) {
      // Created meanwhile (by us or another client) is fine.
      if ((error as { serverResponseCode?: string }).serverResponseCode !== 'ALREADYEXISTS') throw error;
    }
  }

  private async findByMessageId(folderKey: string, messageIdHeader: string | null | undefined): Promise<MessageLocator | null> {
    if (!messageIdHeader) return null;
    const box = await this.client.mailboxOpen(folderKey, { readOnly: true });
    const uids = (await this.client.search({ header: { 'message-id': messageIdHeader } }, { uid: true })) || [];
    const uid = uids.at(-1);
    if (uid === undefined) return null;
    return { providerKey: imapProviderKey(folderKey, box.uidValidity, uid), folderKey, uid: BigInt(uid), uidValidity: box.uidValidity, messageIdHeader };
  }

  async watch(onChange: (change: WatchChange) => void, onEnd: (error: unknown) => void, options: WatchOptions = {}): Promise<WatchHandle | null> {
    const { client } = await openImapClient(this.source, { ...this.imapOverrides, socketTimeout: 30 * 60_000 });
    if (!client.capabilities.has('IDLE')) {
      await closeImap(client);
      return null;
    }
    return watchImap(client, onChange, onEnd, options);
  }

  async close(): Promise<void> {
    await closeImap(this.client);
  }
}
