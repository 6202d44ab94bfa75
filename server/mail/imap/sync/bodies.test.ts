/**
 * The body pass against a server that answers as it likes (a member's IMAP server is outside input): what it
 * was not asked for is ignored, what it answers twice is filled once, what it leaves out is reported missing; a
 * folder gone or of another UIDVALIDITY leaves every row of it missing; a folder's highest UIDs come first.
 */
import type { FetchMessageObject, ImapFlow } from 'imapflow';
import { describe, expect, it } from 'vitest';
import type { BodyBatch, MirrorSink, PendingBody } from '../../provider';
import { fillBodies } from './bodies';
import { defaultBatchLimits } from './fetch-batches';
import { imapProviderKey } from './provider-key';

interface FakeFolder {
  uidValidity: bigint;
  /** What the server answers to a UID FETCH of `asked`. */
  answer: (asked: number[]) => number[];
}

function uidsOf(range: string): number[] {
  return range.split(',').flatMap((part) => {
    const [low, high] = part.split(':').map(Number) as [number, number | undefined];
    return Array.from({ length: (high ?? low) - low + 1 }, (_, index) => low + index);
  });
}

function fakeClient(folders: Record<string, FakeFolder>): { client: ImapFlow; fetches: number[][] } {
  const fetches: number[][] = [];
  let open: FakeFolder | null = null;
  const client = {
    async mailboxOpen(path: string) {
      const folder = folders[path];
      if (!folder) throw Object.assign(new Error('Mailbox does not exist'), { mailboxMissing: true });
      open = folder;
      return { path, uidValidity: folder.uidValidity };
    },
    async *fetch(range: string): AsyncGenerator<FetchMessageObject> {
      const asked = uidsOf(range);
      fetches.push(asked);
      for (const uid of open!.answer(asked)) {
        const source = Buffer.from(`Subject: ${uid}\r\n\r\nBody ${uid}\r\n`);
        yield { seq: uid, uid, size: source.length, source } as FetchMessageObject;
      }
    },
  };
  return { client: client as unknown as ImapFlow, fetches };
}

function recordingSink(): { sink: MirrorSink; batches: BodyBatch[] } {
  const batches: BodyBatch[] = [];
  const sink = {
    async fillBodies(batch: BodyBatch) {
      batches.push(batch);
      return { filled: batch.messages.length };
    },
  } as unknown as MirrorSink;
  return { sink, batches };
}

const pendingOf = (folder: string, uidValidity: bigint, uids: number[]): PendingBody[] =>
  uids.map((uid) => ({ id: `${folder}-${uid}`, providerKey: imapProviderKey(folder, uidValidity, BigInt(uid)) }));

const limits = { ...defaultBatchLimits, messages: 3 };

describe('the body pass over IMAP', () => {
  it('fills what was asked once, ignores what was not, reports what the server left out', async () => {
    const { client } = fakeClient({
      // Answers 99 (not asked), 5 twice, and never 4.
      INBOX: { uidValidity: 7n, answer: (asked) => [99, ...asked.filter((uid) => uid !== 4), ...asked.filter((uid) => uid === 5)] },
    });
    const { sink, batches } = recordingSink();
    const result = await fillBodies(client, sink, limits, pendingOf('INBOX', 7n, [1, 2, 3, 4, 5]), new AbortController().signal);
    const filled = batches.flatMap((batch) => batch.messages.map((message) => message.messageId));
    expect(filled.sort()).toEqual(['INBOX-1', 'INBOX-2', 'INBOX-3', 'INBOX-5']);
    expect(batches.flatMap((batch) => batch.missing)).toEqual(['INBOX-4']);
    expect(result.filled).toBe(4);
    // Each row's source is its own message's.
    for (const batch of batches) for (const { messageId, incoming } of batch.messages) expect(incoming.source.toString()).toContain(`Body ${messageId.split('-')[1]}`);
  });

  it('asks a folder for its highest UIDs first, a batch at a time', async () => {
    const { client, fetches } = fakeClient({ INBOX: { uidValidity: 7n, answer: (asked) => asked } });
    const { sink } = recordingSink();
    await fillBodies(client, sink, limits, pendingOf('INBOX', 7n, [10, 2, 7, 5, 30, 11, 1]), new AbortController().signal);
    // Newest first: 30, 11, 10 | 7, 5, 2 | 1 (each set asked in ascending order, as the protocol answers).
    expect(fetches).toEqual([
      [10, 11, 30],
      [2, 5, 7],
      [1],
    ]);
  });

  it('reports every row of a folder gone, or of another UIDVALIDITY, missing; a key that is not IMAP’s too', async () => {
    const { client, fetches } = fakeClient({ Renumbered: { uidValidity: 2n, answer: (asked) => asked } });
    const { sink, batches } = recordingSink();
    const pending = [...pendingOf('Gone', 1n, [1, 2]), ...pendingOf('Renumbered', 1n, [3]), { id: 'odd', providerKey: 'not an imap key' }];
    const result = await fillBodies(client, sink, limits, pending, new AbortController().signal);
    expect(result.filled).toBe(0);
    expect(fetches).toEqual([]);
    expect(batches.flatMap((batch) => batch.missing).sort()).toEqual(['Gone-1', 'Gone-2', 'Renumbered-3', 'odd']);
  });

  it('past its time, stops after one batch, the newest, leaving the rest pending (not missing)', async () => {
    const { client, fetches } = fakeClient({ INBOX: { uidValidity: 7n, answer: (asked) => asked } });
    const { sink, batches } = recordingSink();
    const result = await fillBodies(client, sink, limits, pendingOf('INBOX', 7n, [1, 2, 3, 4, 5, 6, 7]), new AbortController().signal, Date.now() - 1);
    expect(fetches).toEqual([[5, 6, 7]]);
    expect(result.filled).toBe(3);
    expect(batches.flatMap((batch) => batch.missing)).toEqual([]);
  });

  it('stops between batches once aborted, leaving the rest pending (not missing)', async () => {
    const { client } = fakeClient({ INBOX: { uidValidity: 7n, answer: (asked) => asked } });
    const controller = new AbortController();
    const batches: BodyBatch[] = [];
    const sink = {
      async fillBodies(batch: BodyBatch) {
        batches.push(batch);
        controller.abort();
        return { filled: batch.messages.length };
      },
    } as unknown as MirrorSink;
    await fillBodies(client, sink, limits, pendingOf('INBOX', 7n, [1, 2, 3, 4, 5, 6, 7]), controller.signal);
    expect(batches).toHaveLength(1);
    expect(batches[0]!.messages.map((message) => message.messageId).sort()).toEqual(['INBOX-5', 'INBOX-6', 'INBOX-7']);
    expect(batches[0]!.missing).toEqual([]);
  });
});
