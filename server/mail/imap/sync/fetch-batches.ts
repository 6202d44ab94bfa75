/**
 * Streams messages from a selected folder into mirror batches: bounded by count and bytes, handed to
 * the sink without waiting for the previous batch's write (the sink writes in order), with at most
 * `inFlight` batches outstanding so memory stays bounded while the next FETCH responses are read.
 */
import type { FetchMessageObject, FetchQueryObject, ImapFlow } from 'imapflow';
import type { FolderCursor, IncomingMessage, IngestedVia, MirrorBatch, MirrorSink } from '../../provider';
import { listedHeaderNames } from '../../ingest/ingest';
import { flagsOf, labelsOf } from './flags';
import { imapProviderKey } from './provider-key';
import { packUids } from './uid-ranges';

export interface BatchLimits {
  /** Messages per transaction. */
  messages: number;
  /** Source bytes per transaction. */
  bytes: number;
  /** Source bytes fetched per message (larger ones are cut and completed on demand). */
  fetchBytes: number;
  /** Batches handed to the sink and not written yet. */
  inFlight: number;
}

export const defaultBatchLimits: BatchLimits = { messages: 200, bytes: 32 * 1024 * 1024, fetchBytes: 25 * 1024 * 1024, inFlight: 3 };

export interface FolderRef {
  key: string;
  role: string | null;
  uidValidity: bigint;
}

/**
 * MODSEQ is asked for by imapflow itself whenever CONDSTORE is enabled. `headersOnly`: the header lines a
 * list shows (BODY.PEEK[HEADER.FIELDS (…)], ingest's `listedHeaderNames`) instead of the source, for a large
 * initial window listed first (the body pass writes the rest of each row).
 */
export function fetchQuery(limits: BatchLimits, headersOnly = false): FetchQueryObject {
  const content: FetchQueryObject = headersOnly ? { headers: [...listedHeaderNames] } : { source: { start: 0, maxLength: limits.fetchBytes } };
  return { uid: true, flags: true, internalDate: true, size: true, ...content };
}

export function incomingOf(message: FetchMessageObject, folder: FolderRef, limits: BatchLimits, headersOnly = false): IncomingMessage {
  const size = message.size ?? message.source?.length ?? 0;
  const internalDate = message.internalDate ? new Date(message.internalDate) : null;
  const headers = headersOnly ? { source: message.headers ?? Buffer.alloc(0), sourceComplete: false, bodyDeferred: true } : null;
  return {
    providerKey: imapProviderKey(folder.key, folder.uidValidity, message.uid),
    folderKey: folder.key,
    labels: labelsOf(message.flags),
    uid: BigInt(message.uid),
    uidValidity: folder.uidValidity,
    modseq: message.modseq ?? null,
    flags: flagsOf(message.flags, folder.role),
    internalDate: internalDate && !Number.isNaN(internalDate.getTime()) ? internalDate : null,
    size,
    ...(headers ?? { source: message.source ?? Buffer.alloc(0), sourceComplete: message.source !== undefined && size <= limits.fetchBytes }),
  };
}

/**
 * Hands batches to a writer that keeps them in order (the mirror sink) without waiting for the previous one's
 * write, with at most `inFlight` outstanding; `written` adds up what the settled writes counted.
 */
export class OrderedPipe<Batch> {
  private readonly outstanding: Promise<number>[] = [];
  written = 0;

  constructor(
    private readonly write: (batch: Batch) => Promise<number>,
    private readonly inFlight: number,
  ) {}

  async push(batch: Batch): Promise<void> {
    const written = this.write(batch);
    // Awaited in order below; a failed write is reported once, by that await (the later ones fail with it).
    written.catch(() => {});
    this.outstanding.push(written);
    while (this.outstanding.length >= this.inFlight) this.written += await this.outstanding.shift()!;
  }

  async drain(): Promise<void> {
    while (this.outstanding.length > 0) this.written += await this.outstanding.shift()!;
  }
}

/** The sync's batches: rows inserted. */
export class BatchPipe extends OrderedPipe<MirrorBatch> {
  constructor(sink: MirrorSink, limits: BatchLimits) {
    super(async (batch) => (await sink.commit(batch)).inserted, limits.inFlight);
  }

  get inserted(): number {
    return this.written;
  }
}

export interface FetchNewOptions {
  folder: FolderRef;
  /** First UID to read. */
  fromUid: number;
  /** Last UID to read; absent: up to the newest (`fromUid:*`). */
  toUid?: number;
  /** UIDs below this are the initial window ('initial'), from it on new mail ('delta'). */
  boundaryUid: number;
  /** Written with the first batch (initial sync: oldestUid, uidNext). */
  firstCursor?: Omit<FolderCursor, 'folderKey'>;
  /**
   * Leave `syncedUid` where it is: the range read is above UIDs not mirrored yet (the initial sync's
   * newest messages, read before the rest), so no batch of it may claim everything below it.
   */
  holdSyncedUid?: boolean;
  /** Messages per batch, when not `limits.messages` (the newest batch is one, whatever its size). */
  batchMessages?: number;
  /** Messages in the first batch, when not `batchMessages`. */
  firstBatchMessages?: number;
  /** Headers only (an initial window listed first): every UID read must be below `boundaryUid`, initial mail. */
  headersOnly?: boolean;
  signal: AbortSignal;
}

/**
 * Reads UIDs fromUid:* (or fromUid:toUid) and commits them in batches, each advancing `syncedUid` to
 * its last UID. Returns the highest UID seen (or null) and whether it stopped early (abort).
 */
export async function fetchNew(client: ImapFlow, pipe: BatchPipe, limits: BatchLimits, options: FetchNewOptions): Promise<{ lastUid: number | null; aborted: boolean }> {
  let batch: IncomingMessage[] = [];
  let batchVia: IngestedVia = 'initial';
  let bytes = 0;
  let lastUid: number | null = null;
  let first = options.firstCursor;
  let batchesPushed = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const cursor: FolderCursor = {
      folderKey: options.folder.key,
      uidValidity: options.folder.uidValidity,
      ...(options.holdSyncedUid ? {} : { syncedUid: batch.at(-1)!.uid! }),
      ...first,
    };
    first = undefined;
    await pipe.push({ ingestedVia: batchVia, messages: batch, flagUpdates: [], removedProviderKeys: [], cursors: [cursor] });
    batchesPushed += 1;
    batch = [];
    bytes = 0;
  };
  const upTo = options.toUid ?? Number.POSITIVE_INFINITY;
  const range = options.toUid === undefined ? `${options.fromUid}:*` : `${options.fromUid}:${options.toUid}`;
  for await (const message of client.fetch(range, fetchQuery(limits, options.headersOnly), { uid: true })) {
    // "n:*" always answers the last message, even below n.
    if (message.uid < options.fromUid || message.uid > upTo) continue;
    const via: IngestedVia = message.uid < options.boundaryUid ? 'initial' : 'delta';
    if (batch.length > 0 && via !== batchVia) await flush();
    batchVia = via;
    const incoming = incomingOf(message, options.folder, limits, options.headersOnly);
    batch.push(incoming);
    bytes += incoming.source.length;
    lastUid = message.uid;
    const batchSize = (batchesPushed === 0 ? options.firstBatchMessages : undefined) ?? options.batchMessages ?? limits.messages;
    if (batch.length >= batchSize || bytes >= limits.bytes) {
      await flush();
      if (options.signal.aborted) return { lastUid, aborted: true };
    }
  }
  await flush();
  return { lastUid, aborted: false };
}

/** Fetches the given UIDs (any order) in slices and commits them as `ingestedVia`, with no cursor. */
export async function fetchUids(
  client: ImapFlow,
  pipe: BatchPipe,
  limits: BatchLimits,
  options: { folder: FolderRef; uids: number[]; ingestedVia: IngestedVia; cursorOf?: (uids: number[]) => FolderCursor[]; signal: AbortSignal },
): Promise<boolean> {
  const sorted = [...new Set(options.uids)].sort((a, b) => a - b);
  for (let index = 0; index < sorted.length; index += limits.messages) {
    if (options.signal.aborted) return false;
    const slice = sorted.slice(index, index + limits.messages);
    let batch: IncomingMessage[] = [];
    let bytes = 0;
    const flush = async (uids: number[]) => {
      if (batch.length === 0 && uids.length === 0) return;
      await pipe.push({ ingestedVia: options.ingestedVia, messages: batch, flagUpdates: [], removedProviderKeys: [], cursors: options.cursorOf?.(uids) ?? [] });
      batch = [];
      bytes = 0;
    };
    for await (const message of client.fetch(packUids(slice), fetchQuery(limits), { uid: true })) {
      const incoming = incomingOf(message, options.folder, limits);
      batch.push(incoming);
      bytes += incoming.source.length;
      if (bytes >= limits.bytes) await flush([]);
    }
    await flush(slice);
  }
  return true;
}
