/**
 * One folder's sync over a selected IMAP connection: the initial window, the delta (new UIDs, flag
 * changes, expunges), UIDVALIDITY changes, backfill slices and resync windows. Every write goes
 * through the sink with the cursor that covers it (see ../../mirror/writer.ts).
 *
 * Cursor fields of a folder (mail_folders):
 * - `uidValidity`: the generation mirrored; a different value on SELECT drops the folder's rows and
 *   starts it over (the new generation's UIDs are new provider keys, so nothing is duplicated).
 * - `syncedUid`: every UID up to it is mirrored (or was never there) from `oldestUid` up.
 * - `oldestUid`: the lowest UID the mirror reached; the backfill walks down from it.
 * - `uidNext`: UIDNEXT when the initial sync started: UIDs below it are the initial window
 *   (`ingestedVia: initial`, or `backfill` below `oldestUid`), from it on new mail (`delta`). Kept, so a
 *   sync killed halfway through the initial window resumes it as initial mail, never as new mail. It is
 *   the one field the inbox's newest batch writes (see `newestFirstCount`): a run killed after that
 *   batch starts the initial sync over with the same boundary, so mail that came meanwhile stays new.
 * - `highestModseq`: CONDSTORE position; flag changes and QRESYNC expunges since it are read.
 */
import type { ImapFlow, MailboxObject } from 'imapflow';
import { newestFirstCount, runTimeIsUp, type FlagUpdate, type FolderCursor, type MirrorBatch, type SyncContext } from '../../provider';
import { BatchPipe, fetchNew, fetchUids, type BatchLimits, type FolderRef } from './fetch-batches';
import { flagsOf, labelsOf } from './flags';
import { imapFolderPrefix, imapProviderKey, parseImapProviderKey } from './provider-key';
import { uidSlices, uidSlicesFromNewest } from './uid-ranges';

export type FolderState = SyncContext['folders'][number];

/** Flag updates / removals per transaction. */
const changesPerBatch = 1000;
/** Messages per transaction when only their headers are read, in `limits.messages`. */
const headerBatchFactor = 5;

function condstoreUsable(client: ImapFlow, box: MailboxObject): boolean {
  return client.enabled.has('CONDSTORE') && !box.noModseq && box.highestModseq !== undefined;
}

function num(value: bigint | null | undefined): number | null {
  return value === null || value === undefined ? null : Number(value);
}

/** Opens the folder read-only and handles a UIDVALIDITY change; returns the box and the state to continue from. */
async function openFolder(client: ImapFlow, context: SyncContext, folder: FolderState): Promise<{ box: MailboxObject; state: FolderState; reset: boolean }> {
  const box = await client.mailboxOpen(folder.key, { readOnly: true });
  if (folder.uidValidity !== null && folder.uidValidity !== undefined && folder.uidValidity !== box.uidValidity) {
    await context.sink.resetFolder(folder.key, box.uidValidity);
    return { box, state: { ...folder, uidValidity: box.uidValidity, uidNext: null, syncedUid: null, oldestUid: null, highestModseq: null }, reset: true };
  }
  return { box, state: folder, reset: false };
}

export async function syncFolder(client: ImapFlow, context: SyncContext, folder: FolderState, limits: BatchLimits): Promise<{ inserted: number; initialComplete: boolean }> {
  const { box, state } = await openFolder(client, context, folder);
  const pipe = new BatchPipe(context.sink, limits);
  const ref: FolderRef = { key: folder.key, role: folder.role, uidValidity: box.uidValidity };
  const modseq = condstoreUsable(client, box);
  // UIDNEXT is mandatory in SELECT answers, but a server that omits it still gets synced: without it
  // every delta reads from syncedUid + 1 and the initial window ends at the newest UID found.
  const uidNext = typeof box.uidNext === 'number' && box.uidNext > 0 ? box.uidNext : null;
  const done = { folderKey: folder.key, uidValidity: box.uidValidity, highestModseq: modseq ? box.highestModseq! : null };

  if (state.syncedUid === null || state.syncedUid === undefined) {
    return initialSync(client, context, folder, state, { box, pipe, ref, uidNext, done, limits });
  }

  const synced = Number(state.syncedUid);
  let last = synced;
  if (uidNext === null || uidNext > synced + 1) {
    const read = await fetchNew(client, pipe, limits, { folder: ref, fromUid: synced + 1, boundaryUid: num(state.uidNext) ?? 0, signal: context.signal });
    if (read.aborted) {
      await pipe.drain();
      return { inserted: pipe.inserted, initialComplete: true };
    }
    last = Math.max(read.lastUid ?? synced, (uidNext ?? 0) - 1);
  }
  const oldest = num(state.oldestUid) ?? synced + 1;
  if (oldest <= synced) {
    if (modseq && state.highestModseq !== null && state.highestModseq !== undefined) {
      if (box.highestModseq! > state.highestModseq) await changesSince(client, context, pipe, ref, `${oldest}:${synced}`, state.highestModseq);
    } else {
      await fullCompare(client, context, pipe, ref, oldest, synced);
    }
  }
  // A folder where nothing moved costs no transaction.
  if (last !== synced || (done.highestModseq ?? null) !== (state.highestModseq ?? null)) {
    await pipe.push(cursorOnly({ ...done, syncedUid: BigInt(last) }));
  }
  await pipe.drain();
  return { inserted: pipe.inserted, initialComplete: true };
}

interface InitialSyncParts {
  box: MailboxObject;
  pipe: BatchPipe;
  ref: FolderRef;
  uidNext: number | null;
  done: FolderCursor;
  limits: BatchLimits;
}

/**
 * Initial sync: the newest `initialMaxPerFolder` messages received since `initialSince`, and every UID
 * above the oldest of them. In the inbox the top of that range (its newest `newestFirstCount`
 * messages and any UID between them) is read first, without moving `syncedUid`; then the range from
 * the oldest UID up to just below it, batch by batch with the cursor; then anything above it (mail
 * that arrived during the run, as new mail). `syncedUid` only ever covers a contiguous range, so a
 * run killed anywhere resumes with no gap: before the ascending pass committed a batch the folder
 * still reads as never synced and starts over; after, the delta reads from `syncedUid` up, the newest
 * batch included, and the writer skips what it already holds.
 */
async function initialSync(
  client: ImapFlow,
  context: SyncContext,
  folder: FolderState,
  state: FolderState,
  { box, pipe, ref, uidNext, done, limits }: InitialSyncParts,
): Promise<{ inserted: number; initialComplete: boolean }> {
  const found = box.exists === 0 ? [] : ((await client.search({ since: context.initialSince }, { uid: true })) || []);
  const window = found.slice(-context.initialMaxPerFolder);
  // A boundary written by the newest batch of a killed run is kept (see the cursor fields above).
  const boundary = num(state.uidNext) ?? uidNext ?? (found.at(-1) ?? 0) + 1;
  if (window.length === 0) {
    await pipe.push({ ingestedVia: 'initial', messages: [], flagUpdates: [], removedProviderKeys: [], cursors: [{ ...done, uidNext: BigInt(boundary), syncedUid: BigInt(boundary - 1), oldestUid: BigInt(boundary) }] });
    await pipe.drain();
    return { inserted: 0, initialComplete: true };
  }
  const start = window[0]!;
  const initial = window.filter((uid) => uid < boundary);
  const newest = folder.role === 'inbox' && initial.length > newestFirstCount ? initial.slice(-newestFirstCount) : [];
  const aborted = async () => {
    await pipe.drain();
    return { inserted: pipe.inserted, initialComplete: false };
  };
  if (newest.length > 0) {
    const top = await fetchNew(client, pipe, limits, {
      folder: ref,
      fromUid: newest[0]!,
      toUid: newest.at(-1)!,
      boundaryUid: boundary,
      firstCursor: { uidNext: BigInt(boundary) },
      holdSyncedUid: true,
      // One batch (within the byte bound): one transaction and one live event bring the whole top.
      batchMessages: Number.POSITIVE_INFINITY,
      signal: context.signal,
    });
    if (top.aborted || context.signal.aborted) return aborted();
  }
  // A large window is listed from its headers (the body pass fetches the rest): only initial mail, below the
  // boundary; mail that came during the run is new mail, fetched whole for the workflows it may start.
  const headersFirst = context.syncMode === 'full' && context.headersFirstAbove !== undefined && initial.length - newest.length > context.headersFirstAbove;
  const below = await fetchNew(client, pipe, limits, {
    folder: ref,
    fromUid: start,
    toUid: newest.length > 0 ? newest[0]! - 1 : headersFirst ? boundary - 1 : undefined,
    boundaryUid: boundary,
    firstCursor: { uidNext: BigInt(boundary), oldestUid: BigInt(start) },
    headersOnly: headersFirst,
    // A header is a few hundred bytes to a few KB: five batches' worth in one transaction costs what one whole batch
    // costs, and a fifth of the round trips, statements and live events. The first is an ordinary batch: the writer,
    // done with the newest batch, waits for it, and 1,000 headers take 0.1-0.3 s to read and parse.
    ...(headersFirst ? { batchMessages: limits.messages * headerBatchFactor, firstBatchMessages: limits.messages } : {}),
    signal: context.signal,
  });
  if (below.aborted) return aborted();
  let lastUid = below.lastUid;
  // What lies above the range just read: the newest batch (written already) and mail that came during the run.
  const readUpTo = newest.length > 0 ? newest.at(-1)! : headersFirst ? boundary - 1 : null;
  if (readUpTo !== null) {
    if (context.signal.aborted) return aborted();
    // Everything up to the newest batch is mirrored now (the headers-first range: the cursor is where its last batch left it).
    if (newest.length > 0) await pipe.push(cursorOnly({ ...done, uidNext: BigInt(boundary), oldestUid: BigInt(start), syncedUid: BigInt(readUpTo) }));
    const above = await fetchNew(client, pipe, limits, { folder: ref, fromUid: readUpTo + 1, boundaryUid: boundary, signal: context.signal });
    if (above.aborted) return aborted();
    lastUid = above.lastUid ?? (newest.length > 0 ? readUpTo : lastUid);
  }
  await pipe.push(cursorOnly({ ...done, syncedUid: BigInt(Math.max(lastUid ?? 0, boundary - 1)), uidNext: BigInt(boundary), oldestUid: BigInt(start) }));
  await pipe.drain();
  return { inserted: pipe.inserted, initialComplete: true };
}

function cursorOnly(cursor: FolderCursor): MirrorBatch {
  return { ingestedVia: 'delta', messages: [], flagUpdates: [], removedProviderKeys: [], cursors: [cursor] };
}

async function pushChanges(pipe: BatchPipe, updates: FlagUpdate[], removed: string[]): Promise<void> {
  for (let index = 0; index < Math.max(updates.length, removed.length); index += changesPerBatch) {
    await pipe.push({
      ingestedVia: 'delta',
      messages: [],
      flagUpdates: updates.slice(index, index + changesPerBatch),
      removedProviderKeys: removed.slice(index, index + changesPerBatch),
      cursors: [],
    });
  }
}

/** CONDSTORE: flags changed since `modseq`; with QRESYNC the same FETCH reports expunged UIDs (VANISHED). */
async function changesSince(client: ImapFlow, context: SyncContext, pipe: BatchPipe, folder: FolderRef, range: string, modseq: bigint): Promise<void> {
  const updates: FlagUpdate[] = [];
  const vanished: number[] = [];
  const onExpunge = (event: { path: string; uid?: number; vanished: boolean }) => {
    if (event.vanished && event.path === folder.key && event.uid !== undefined) vanished.push(event.uid);
  };
  client.on('expunge', onExpunge);
  try {
    for await (const message of client.fetch(range, { uid: true, flags: true }, { uid: true, changedSince: modseq })) {
      updates.push({ providerKey: imapProviderKey(folder.key, folder.uidValidity, message.uid), flags: flagsOf(message.flags, folder.role), labels: labelsOf(message.flags), modseq: message.modseq ?? null });
    }
  } finally {
    client.off('expunge', onExpunge);
  }
  const removed = vanished.map((uid) => imapProviderKey(folder.key, folder.uidValidity, uid));
  if (!client.enabled.has('QRESYNC')) {
    const [low, high] = range.split(':').map(Number) as [number, number];
    removed.push(...(await expungedByComparison(client, context, folder, low, high)));
  }
  await pushChanges(pipe, updates, removed);
}

/** Without CONDSTORE: every mirrored message's flags are read and compared (the writer skips the unchanged). */
async function fullCompare(client: ImapFlow, context: SyncContext, pipe: BatchPipe, folder: FolderRef, low: number, high: number): Promise<void> {
  const updates: FlagUpdate[] = [];
  for await (const message of client.fetch(`${low}:${high}`, { uid: true, flags: true }, { uid: true })) {
    if (message.uid < low || message.uid > high) continue;
    updates.push({ providerKey: imapProviderKey(folder.key, folder.uidValidity, message.uid), flags: flagsOf(message.flags, folder.role), labels: labelsOf(message.flags) });
  }
  const removed = await expungedByComparison(client, context, folder, low, high);
  await pushChanges(pipe, updates, removed);
}

/** Mirrored UIDs in [low, high] the server no longer has (UID SEARCH compared with the mirror). */
async function expungedByComparison(client: ImapFlow, context: SyncContext, folder: FolderRef, low: number, high: number): Promise<string[]> {
  const present = new Set((await client.search({ uid: `${low}:${high}` }, { uid: true })) || []);
  const mirrored = await context.sink.mirroredKeys(imapFolderPrefix(folder.key, folder.uidValidity));
  return mirrored.filter((key) => {
    const uid = Number(parseImapProviderKey(key)?.uid ?? -1);
    return uid >= low && uid <= high && !present.has(uid);
  });
}

/**
 * One backfill slice of a folder: the newest `max` UIDs below `oldestUid` (received since `since`
 * when given), one FETCH per batch, and past `until` (ms since the epoch) no batch after its first: over a
 * slow link a slice of 1,000 takes tens of seconds, and new mail reported by IDLE waits for the run to end.
 * Returns how many were inserted, how many UIDs were fetched and how many older remain.
 */
export async function backfillFolder(
  client: ImapFlow,
  context: SyncContext,
  folder: FolderState,
  limits: BatchLimits,
  options: { since: Date | null; max: number; until?: number },
): Promise<{ inserted: number; fetched: number; remaining: number }> {
  const none = { inserted: 0, fetched: 0, remaining: 0 };
  const { box, state, reset } = await openFolder(client, context, folder);
  const oldest = num(state.oldestUid);
  // Not synced yet (or just reset): the delta's initial sync comes first.
  if (reset || oldest === null || state.syncedUid === null || oldest <= 1) return none;
  // The walk stays contiguous in UIDs (every UID from oldestUid up is mirrored), so a later backfill
  // further back never skips anything: with a date, it goes down to the lowest UID received since
  // then, taking along the few older ones in between (dates and UIDs are not always in step).
  let floor = 1;
  if (options.since) {
    const recent = ((await client.search({ uid: `1:${oldest - 1}`, since: options.since }, { uid: true })) || []).filter((uid) => uid < oldest);
    if (recent.length === 0) return none;
    floor = recent[0]!;
  }
  const below = ((await client.search({ uid: `${floor}:${oldest - 1}` }, { uid: true })) || []).filter((uid) => uid >= floor && uid < oldest);
  if (below.length === 0) {
    // Nothing older at all: the folder is complete down to its first UID.
    if (!options.since) {
      const pipe = new BatchPipe(context.sink, limits);
      await pipe.push(cursorOnly({ folderKey: folder.key, uidValidity: box.uidValidity, oldestUid: 1n }));
      await pipe.drain();
    }
    return none;
  }
  const slice = options.max > 0 ? below.slice(-options.max) : [];
  if (slice.length === 0) return { ...none, remaining: below.length };
  const pipe = new BatchPipe(context.sink, limits);
  const ref: FolderRef = { key: folder.key, role: folder.role, uidValidity: box.uidValidity };
  // Slices are read from the newest down so `oldestUid` only ever moves down over mirrored UIDs, the newest
  // a full one (a run stopped by its time after one batch fetched a whole batch).
  const groups = uidSlicesFromNewest(slice, limits.messages);
  let fetched = 0;
  for (const group of groups) {
    if (context.signal.aborted) break;
    if (runTimeIsUp(options.until, fetched)) break;
    fetched += group.length;
    await fetchUids(client, pipe, limits, {
      folder: ref,
      uids: group,
      ingestedVia: 'backfill',
      cursorOf: (uids) => (uids.length > 0 ? [{ folderKey: folder.key, uidValidity: box.uidValidity, oldestUid: BigInt(uids[0]!) }] : []),
      signal: context.signal,
    });
  }
  await pipe.drain();
  return { inserted: pipe.inserted, fetched, remaining: below.length - fetched };
}

/**
 * Resync of a folder since a date: flags (and the folder) of every mirrored message received since
 * then are refreshed, and the ones missing from the mirror are inserted silently (`resync`). Only UIDs
 * the delta already covers (≤ syncedUid): newer mail is the delta's, as new mail.
 */
export async function resyncFolder(client: ImapFlow, context: SyncContext, folder: FolderState, limits: BatchLimits, since: Date): Promise<{ inserted: number; refreshed: number }> {
  const { box, state, reset } = await openFolder(client, context, folder);
  if (reset || state.syncedUid === null || state.syncedUid === undefined) return { inserted: 0, refreshed: 0 };
  const synced = Number(state.syncedUid);
  const uids = ((await client.search({ since }, { uid: true })) || []).filter((uid) => uid <= synced);
  if (uids.length === 0) return { inserted: 0, refreshed: 0 };
  const ref: FolderRef = { key: folder.key, role: folder.role, uidValidity: box.uidValidity };
  const mirrored = new Set(
    (await context.sink.mirroredKeys(imapFolderPrefix(folder.key, box.uidValidity))).map((key) => Number(parseImapProviderKey(key)?.uid ?? -1)),
  );
  const pipe = new BatchPipe(context.sink, limits);
  const present = uids.filter((uid) => mirrored.has(uid));
  const updates: FlagUpdate[] = [];
  for (const group of uidSlices(present, changesPerBatch)) {
    for await (const message of client.fetch(group.join(','), { uid: true, flags: true }, { uid: true })) {
      updates.push({ providerKey: imapProviderKey(folder.key, box.uidValidity, message.uid), flags: flagsOf(message.flags, folder.role), labels: labelsOf(message.flags), folderKey: folder.key });
    }
  }
  await pushChanges(pipe, updates, []);
  const missing = uids.filter((uid) => !mirrored.has(uid));
  await fetchUids(client, pipe, limits, { folder: ref, uids: missing, ingestedVia: 'resync', signal: context.signal });
  await pipe.drain();
  return { inserted: pipe.inserted, refreshed: updates.length };
}
