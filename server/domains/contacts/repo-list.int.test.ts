/**
 * The list's fast path with `q` and `kind` (repo-list.ts): reading the newest cards of each layer and keeping the
 * matching entries must page exactly as the full statement ranks, whatever the layer, the mailbox view and the
 * filter, including when the fast path cannot fill a page and the full statement takes over.
 */
import { describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createMember } from '../../testing/factories';
import { createMailbox } from '../../testing/mail-factories';
import { useTestDatabase } from '../../testing/test-database';
import { listEntryPage, newestEntries, rankedEntries, type ListFilter } from './repo-list';

await useTestDatabase();

describe('the list’s fast path with q or kind ranks as the full statement does', () => {
  it('pages through every layer, view and filter exactly as the full ranking, with few cards read per layer', async () => {
    const own = await createMember();
    const other = await createMember();
    const box = await createMailbox(own);
    const base = Date.parse('2026-06-01T00:00:00.000Z');
    const at = (minutes: number) => new Date(base + minutes * 60_000);
    for (let index = 0; index < 30; index += 1) {
      const kind = index % 5 === 0 ? 'domain' : 'contact';
      const value = kind === 'domain' ? `d${index}.qpath.example` : `q${index}@qpath.example`;
      const entry = await db().contactEntry.create({ data: { kind, value } });
      if (index % 3 !== 1) await db().contactSharedCard.create({ data: { entryId: entry.id, displayName: index % 2 ? `Acme ${index}` : `Other ${index}`, updatedAt: at((index * 7) % 41) } });
      if (index % 2 === 0) await db().contactMemberCard.create({ data: { entryId: entry.id, memberId: own.id, personalNotes: index % 4 ? 'met acme' : null, updatedAt: at((index * 5) % 37) } });
      if (index % 4 !== 3) await db().contactMailboxCard.create({ data: { entryId: entry.id, memberId: own.id, mailboxId: box.id, updatedAt: at((index * 11) % 43) } });
      // Another member's notes never make an entry match.
      await db().contactMemberCard.create({ data: { entryId: entry.id, memberId: other.id, personalNotes: 'acme everywhere', updatedAt: at(index) } });
    }
    const filters: Partial<ListFilter>[] = [{ q: 'acme' }, { q: 'q1' }, { q: 'qpath' }, { kind: 'domain' }, { kind: 'contact', q: 'acme' }, { q: 'absent-word' }];
    let fastPages = 0;
    for (const extra of filters) {
      for (const layer of ['all', 'shared', 'member'] as const) {
        for (const mailboxId of [null, box.id]) {
          const filter = { memberId: own.id, layer, mailboxId, limit: 2, ...extra };
          const label = `${JSON.stringify(extra)} ${layer} ${mailboxId ? 'mailbox' : 'none'}`;
          const full = await rankedEntries({ ...filter, after: null, limit: 100 });
          const seen: string[] = [];
          let after = null as null | { at: Date; id: string };
          for (let guard = 0; guard < 100; guard += 1) {
            const fast = await newestEntries({ ...filter, after }, 4);
            if (fast) fastPages += 1;
            const rows = fast ?? (await rankedEntries({ ...filter, after }));
            const page = rows.slice(0, 2);
            seen.push(...page.map((row) => row.id));
            if (rows.length <= 2) break;
            after = { at: page[1]!.at, id: page[1]!.id };
          }
          expect(seen, label).toEqual(full.map((row) => row.id));
          // listEntryPage (its own reading sizes) gives the full ranking's first page too.
          expect((await listEntryPage({ ...filter, after: null })).map((row) => row.id), label).toEqual(full.slice(0, 3).map((row) => row.id));
        }
      }
    }
    expect(fastPages).toBeGreaterThan(0);
  });
});
