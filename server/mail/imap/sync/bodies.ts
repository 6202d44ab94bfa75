/**
 * The body pass over IMAP: the rows an initial sync listed from their header, fetched whole by UID
 * folder by folder (in the queue's order, newest first), the highest UIDs of a folder first, and handed
 * to the sink in batches bounded like the sync's. A message the folder no longer has (expunged, or the
 * folder's UIDVALIDITY changed) is reported missing: the delta removes its row.
 */
import type { FetchQueryObject, ImapFlow } from 'imapflow';
import { runTimeIsUp, type BodyBatch, type MirrorSink, type PendingBody } from '../../provider';
import { incomingOf, OrderedPipe, type BatchLimits } from './fetch-batches';
import { parseImapProviderKey } from './provider-key';
import { packUids } from './uid-ranges';

interface FolderPending {
  folderKey: string;
  uidValidity: bigint;
  /** Row id by UID. */
  ids: Map<number, string>;
}

function byFolder(pending: PendingBody[]): { folders: FolderPending[]; unreadable: string[] } {
  const folders = new Map<string, FolderPending>();
  const unreadable: string[] = [];
  for (const row of pending) {
    const located = parseImapProviderKey(row.providerKey);
    if (!located) {
      unreadable.push(row.id);
      continue;
    }
    const key = `${located.folderKey}\n${located.uidValidity}`;
    let folder = folders.get(key);
    if (!folder) folders.set(key, (folder = { folderKey: located.folderKey, uidValidity: located.uidValidity, ids: new Map() }));
    folder.ids.set(Number(located.uid), row.id);
  }
  return { folders: [...folders.values()], unreadable };
}

/** The source and its size (whether it was cut): flags and dates are the delta's, kept from the listing. */
function bodyQuery(limits: BatchLimits): FetchQueryObject {
  return { uid: true, size: true, source: { start: 0, maxLength: limits.fetchBytes } };
}

/**
 * Past `until` (ms since the epoch) the pass stops between FETCH batches, after its first one: every run moves it
 * on, and none holds the connection (new mail waiting behind it) much past its time, whatever the link's speed.
 */
export async function fillBodies(
  client: ImapFlow,
  sink: MirrorSink,
  limits: BatchLimits,
  pending: PendingBody[],
  signal: AbortSignal,
  until?: number,
): Promise<{ filled: number }> {
  const { folders, unreadable } = byFolder(pending);
  const pipe = new OrderedPipe<BodyBatch>(async (batch) => (await sink.fillBodies(batch)).filled, limits.inFlight);
  if (unreadable.length > 0) await pipe.push({ messages: [], missing: unreadable });
  let fetches = 0;
  const stopping = () => signal.aborted || runTimeIsUp(until, fetches);
  for (const folder of folders) {
    if (stopping()) break;
    const missing = new Set(folder.ids.values());
    /** Whether every UID of the folder was asked for (only then is what it did not answer missing). */
    let asked = true;
    let box;
    try {
      box = await client.mailboxOpen(folder.folderKey, { readOnly: true });
    } catch (error) {
      if (!(error as { mailboxMissing?: boolean }).mailboxMissing) throw error;
      await pipe.push({ messages: [], missing: [...missing] });
      continue;
    }
    if (box.uidValidity === folder.uidValidity) {
      const ref = { key: folder.folderKey, role: null, uidValidity: box.uidValidity };
      // A server answers a UID set in ascending order whatever order it was asked in: one FETCH per batch, the
      // highest UIDs (the newest mail) first.
      const uids = [...folder.ids.keys()].sort((a, b) => b - a);
      for (let start = 0; start < uids.length; start += limits.messages) {
        if (stopping()) {
          asked = false;
          break;
        }
        fetches += 1;
        let batch: BodyBatch['messages'] = [];
        let bytes = 0;
        for await (const message of client.fetch(packUids(uids.slice(start, start + limits.messages)), bodyQuery(limits), { uid: true })) {
          const messageId = folder.ids.get(message.uid);
          if (messageId === undefined || !missing.delete(messageId)) continue;
          const incoming = incomingOf(message, ref, limits);
          batch.push({ messageId, incoming });
          bytes += incoming.source.length;
          if (bytes >= limits.bytes) {
            await pipe.push({ messages: batch, missing: [] });
            batch = [];
            bytes = 0;
          }
        }
        if (batch.length > 0) await pipe.push({ messages: batch, missing: [] });
      }
    }
    // Not returned by the folder (or a folder of another generation): the delta removes these rows.
    if (asked && !signal.aborted && missing.size > 0) await pipe.push({ messages: [], missing: [...missing] });
  }
  await pipe.drain();
  return { filled: pipe.written };
}
