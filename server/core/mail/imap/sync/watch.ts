/**
 * The IMAP push channel of a mailbox, on a connection of its own: IDLE on the inbox (EXISTS, EXPUNGE
 * and FETCH FLAGS report `inbox` changes), and, where the server offers LIST-STATUS (RFC 5819), a look
 * at every other mirrored folder every `folderCheckMs` on the same connection: one LIST-STATUS, then
 * IDLE again. Mail that a server-side rule (sieve) files straight into another folder raises no IDLE
 * event on the inbox; the look reports it as `folders` instead of leaving it to the orchestrator's
 * slow poll. Without LIST-STATUS (one STATUS per folder would be needed) other folders are left to
 * that poll.
 */
import type { ImapFlow, ListResponse } from 'imapflow';
import type { WatchChange, WatchHandle } from '../../provider';
import { SyncError } from '../../sync-errors';
import { closeImap } from './connect';
import { folderRows, isSyncedFolder } from './folders';

export interface ImapWatchOptions {
  /** How often other folders are looked at (LIST-STATUS); 0 or absent: never. */
  folderCheckMs?: number;
}

type FolderStamps = Map<string, string>;

/** UIDVALIDITY, UIDNEXT and the message count of every mirrored folder but the inbox (new, gone or moved mail changes one). */
async function folderStamps(client: ImapFlow): Promise<FolderStamps> {
  const entries = (await client.list({ statusQuery: { uidNext: true, uidValidity: true, messages: true } })) as Array<ListResponse & { status?: Record<string, unknown> }>;
  const synced = new Set(folderRows(entries).filter((folder) => isSyncedFolder(folder) && folder.role !== 'inbox').map((folder) => folder.key));
  const stamps: FolderStamps = new Map();
  for (const entry of entries) {
    if (!synced.has(entry.path) || !entry.status || entry.status.error) continue;
    stamps.set(entry.path, `${String(entry.status.uidValidity)}:${String(entry.status.uidNext)}:${String(entry.status.messages)}`);
  }
  return stamps;
}

function sameStamps(a: FolderStamps, b: FolderStamps): boolean {
  if (a.size !== b.size) return false;
  for (const [key, stamp] of a) if (b.get(key) !== stamp) return false;
  return true;
}

/**
 * Starts watching on a logged-in connection (which it owns from now on and closes). `onEnd` runs once
 * when the watch stops by itself, never after `close()`.
 */
export async function watchImap(
  client: ImapFlow,
  onChange: (change: WatchChange) => void,
  onEnd: (error: unknown) => void,
  options: ImapWatchOptions = {},
): Promise<WatchHandle> {
  let closing = false;
  let ended = false;
  let checkTimer: NodeJS.Timeout | null = null;
  const onInbox = () => onChange('inbox');
  const end = (error: unknown) => {
    if (closing || ended) return;
    ended = true;
    if (checkTimer) clearInterval(checkTimer);
    client.off('exists', onInbox);
    client.off('expunge', onInbox);
    client.off('flags', onInbox);
    // An IDLE that ended while the connection lives on (the server ended it, a NOOP broke it) would
    // otherwise stay open beside the next watch, auto-IDLEing on its own.
    void closeImap(client);
    onEnd(error);
  };
  client.on('exists', onInbox);
  client.on('expunge', onInbox);
  client.on('flags', onInbox);
  client.on('close', () => end(new SyncError({ kind: 'unreachable', code: 'imap.unreachable', message: 'The watch connection closed.' })));
  try {
    await client.mailboxOpen('INBOX', { readOnly: true });
    const checkMs = client.capabilities.has('LIST-STATUS') ? (options.folderCheckMs ?? 0) : 0;
    let stamps = checkMs > 0 ? await folderStamps(client) : null;

    // A look at the other folders breaks IDLE (imapflow sends DONE before the LIST); the loop below
    // tells that apart from IDLE ending on its own by the looks started meanwhile.
    let looksStarted = 0;
    let looking: Promise<void> | null = null;
    const look = () => {
      if (looking || closing || ended || !stamps) return;
      looksStarted += 1;
      looking = (async () => {
        const next = await folderStamps(client);
        const changed = !sameStamps(stamps!, next);
        stamps = next;
        if (changed && !closing && !ended) onChange('folders');
      })()
        .catch((error: unknown) => {
          // The server refused the LIST-STATUS (NO/BAD): the connection is fine, the looks stop
          // (other folders wait for the poll) and IDLE goes on. Anything else ends the watch.
          if (['NO', 'BAD'].includes(String((error as { responseStatus?: unknown }).responseStatus))) {
            stamps = null;
            if (checkTimer) clearInterval(checkTimer);
            return;
          }
          end(error);
        })
        .finally(() => {
          looking = null;
        });
    };
    if (checkMs > 0) {
      checkTimer = setInterval(look, checkMs);
      checkTimer.unref();
    }

    const idleLoop = async () => {
      for (;;) {
        const before = looksStarted;
        // idle() returns once something else breaks IDLE (it restarts IDLE itself every maxIdleTime).
        await client.idle();
        if (closing || ended) return;
        if (looksStarted === before && !looking) throw new SyncError({ kind: 'unreachable', code: 'imap.unreachable', message: 'The watch stopped.' });
        await looking;
        if (closing || ended) return;
      }
    };
    void idleLoop().catch((error: unknown) => end(error));
  } catch (error) {
    closing = true;
    if (checkTimer) clearInterval(checkTimer);
    await closeImap(client);
    throw error;
  }
  return {
    async close() {
      closing = true;
      if (checkTimer) clearInterval(checkTimer);
      await closeImap(client);
    },
  };
}
