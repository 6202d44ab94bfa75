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
  /**
   * How often the connection proves itself alive when no look did meanwhile: IDLE is broken by a NOOP
   * that must be answered within `aliveTimeoutMs` (default 20 s). 0 or absent: never. Without it, a
   * connection that silently stops carrying bytes (a NAT or firewall dropping state, a frozen server)
   * keeps IDLE "open" until the socket timeout, 30 min, with no mail arriving.
   */
  aliveCheckMs?: number;
  aliveTimeoutMs?: number;
  /** Called whenever the watch knows its connection alive. */
  onAlive?: () => void;
}

/** The deadline of a NOOP or a folder look before the watch is declared dead. */
const defaultAliveTimeoutMs = 20_000;

function bounded<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new SyncError({ kind: 'timeout', code: 'imap.unreachable', message: 'The watch connection stopped answering.' })), ms);
  });
  return Promise.race([work, expired]).finally(() => {
    clearTimeout(timer);
    work.catch(() => {});
  });
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
  let aliveTimer: NodeJS.Timeout | null = null;
  const alive = () => {
    if (!closing && !ended) options.onAlive?.();
  };
  const onInbox = () => {
    alive();
    onChange('inbox');
  };
  const end = (error: unknown) => {
    if (closing || ended) return;
    ended = true;
    if (checkTimer) clearInterval(checkTimer);
    if (aliveTimer) clearInterval(aliveTimer);
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
    const aliveTimeoutMs = options.aliveTimeoutMs ?? defaultAliveTimeoutMs;
    await bounded(client.mailboxOpen('INBOX', { readOnly: true }), aliveTimeoutMs);
    const checkMs = client.capabilities.has('LIST-STATUS') ? (options.folderCheckMs ?? 0) : 0;
    let stamps = checkMs > 0 ? await bounded(folderStamps(client), aliveTimeoutMs) : null;

    // A look at the other folders breaks IDLE (imapflow sends DONE before the LIST); the loop below
    // tells that apart from IDLE ending on its own by the looks started meanwhile.
    let looksStarted = 0;
    let lastAnswerAt = Date.now();
    let looking: Promise<void> | null = null;
    const answered = () => {
      lastAnswerAt = Date.now();
      alive();
    };
    const look = () => {
      if (looking || closing || ended || !stamps) return;
      looksStarted += 1;
      looking = (async () => {
        const next = await bounded(folderStamps(client), aliveTimeoutMs);
        answered();
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
    // The proof of life: a NOOP (it breaks IDLE like a look does) unless a look was answered recently.
    const aliveMs = options.aliveCheckMs ?? 0;
    const probe = () => {
      if (looking || closing || ended || Date.now() - lastAnswerAt < aliveMs / 2) return;
      looksStarted += 1;
      looking = bounded(client.noop(), aliveTimeoutMs)
        .then(answered)
        .catch((error: unknown) => end(error))
        .finally(() => {
          looking = null;
        });
    };
    if (aliveMs > 0) {
      aliveTimer = setInterval(probe, aliveMs);
      aliveTimer.unref();
    }
    answered();

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
    if (aliveTimer) clearInterval(aliveTimer);
    await closeImap(client);
    throw error;
  }
  return {
    async close() {
      closing = true;
      if (checkTimer) clearInterval(checkTimer);
      if (aliveTimer) clearInterval(aliveTimer);
      await closeImap(client);
    },
  };
}
