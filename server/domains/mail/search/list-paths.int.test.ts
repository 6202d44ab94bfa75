/**
 * A search list takes one of three paths (walk the newest rows, read the few matches from the search
 * index, or walk on) depending on thresholds sized for large mailboxes. Here tiny thresholds force
 * each path on a few rows: every path must give the pages the plain walk gives, cursor by cursor.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeCursor, pageOf } from '../../../core/http/cursor';
import { createMember } from '../../../testing/factories';
import { createMailbox, createMessage } from '../../../testing/mail-factories';
import { useTestDatabase } from '../../../testing/test-database';
import { messageListStatement } from '../messages/list-statement';
import { runStatement } from '../repo';
import { threadListStatement } from '../threads/list-statement';
import { preparedSearchOf } from './prepare';
import type { SearchTuning } from './sql';

await useTestDatabase();

let boxes: string[];
const base = Date.parse('2026-03-01T00:00:00Z');

beforeAll(async () => {
  const member = await createMember();
  const first = await createMailbox(member);
  const second = await createMailbox(member);
  boxes = [first.id, second.id];
  // 40 threads over two mailboxes; `common` in two of three, `rare` in one of ten, some replies.
  for (let i = 0; i < 40; i += 1) {
    const box = i % 4 === 0 ? second : first;
    const words = [i % 3 !== 0 ? 'common' : 'other', i % 10 === 0 ? 'rare' : 'plain'].join(' ');
    const message = await createMessage(box, { subject: `Subject ${i} ${words}`, receivedAt: new Date(base + i * 60_000), folderKey: i % 7 === 0 ? 'Archive' : 'INBOX' });
    if (i % 5 === 0) await createMessage(box, { threadId: message.threadId!, subject: `Re ${i}`, receivedAt: new Date(base + i * 60_000 + 30_000), folderKey: 'Sent' });
  }
});

const tunings: [string, SearchTuning][] = [
  ['walk finds the page', { walkedFirst: 10_000, fewMatches: 10_000 }],
  ['the few matches', { walkedFirst: 1, fewMatches: 10_000 }],
  ['walk on', { walkedFirst: 1, fewMatches: 1 }],
  ['mixed', { walkedFirst: 3, fewMatches: 5 }],
];

async function allPages(list: (cursor: string | null) => Promise<{ ids: string[]; nextCursor: string | null }>): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const page = await list(cursor);
    pages.push(page.ids);
    cursor = page.nextCursor;
  } while (cursor && pages.length < 50);
  return pages;
}

function threadPages(q: string, folderKeys: string[] | null, tuning: SearchTuning, limit = 4) {
  return allPages(async (cursor) => {
    const search = await preparedSearchOf(q);
    const rows = await runStatement<{ id: string; last_message_at: Date }>(
      threadListStatement({ scopes: boxes.map((mailboxId) => ({ mailboxId, folderKeys })), flaggedOnly: false, filter: 'all', search, after: decodeCursor(cursor), take: limit + 1, tuning }),
    );
    const { items, nextCursor } = pageOf(rows, limit, (row) => row.last_message_at);
    return { ids: items.map((row) => row.id), nextCursor };
  });
}

function messagePages(q: string, tuning: SearchTuning, limit = 3) {
  return allPages(async (cursor) => {
    const search = await preparedSearchOf(q);
    const rows = await runStatement<{ id: string; received_at: Date }>(messageListStatement({ mailboxIds: boxes, search, after: decodeCursor(cursor), take: limit + 1, tuning }));
    const { items, nextCursor } = pageOf(rows, limit, (row) => row.received_at);
    return { ids: items.map((row) => row.id), nextCursor };
  });
}

describe('search list paths', () => {
  it.each(['common', 'rare', 'subj', 'common rare', '"common rare"', 'common -rare', 'from:sender', 'nothing'])('threads %j: every path gives the same pages', async (q) => {
    for (const folderKeys of [['INBOX'], null]) {
      const expected = await threadPages(q, folderKeys, tunings[0][1]);
      if (q === 'nothing') expect(expected).toEqual([[]]);
      else expect(expected.flat().length).toBeGreaterThan(0);
      for (const [name, tuning] of tunings.slice(1)) expect(await threadPages(q, folderKeys, tuning), name).toEqual(expected);
    }
  });

  it.each(['common', 'rare', 'subject', 're', 'common -rare'])('messages %j: every path gives the same pages', async (q) => {
    const expected = await messagePages(q, tunings[0][1]);
    expect(expected.flat().length).toBeGreaterThan(0);
    for (const [name, tuning] of tunings.slice(1)) expect(await messagePages(q, tuning), name).toEqual(expected);
  });

  it('lists rare matches in the folder only', async () => {
    const inbox = (await threadPages('rare', ['INBOX'], tunings[1][1])).flat();
    const everywhere = (await threadPages('rare', null, tunings[1][1])).flat();
    // i = 0, 10, 20, 30: 0 is in the archive (i % 7 === 0).
    expect(inbox).toHaveLength(3);
    expect(everywhere).toHaveLength(4);
  });
});
