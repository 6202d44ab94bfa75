/**
 * The mirror writer alone (issue 25 §3): the sync's batches written with nothing else running, their messages
 * ingested beforehand, in the order, sizes (200) and statistics refreshes of a sync. The writer is a sync's
 * critical path (one connection, batches in order), so its time is the shortest a sync of this corpus can take as
 * the app writes it, however fast fetching and parsing get; and on a noisy machine its figures move far less than
 * a whole sync's, which makes a change to the writer measurable at all.
 */
import { randomUUID } from 'node:crypto';

export interface WriterAlone {
  ms: number;
  /** PostgreSQL's CPU meanwhile (NaN for a remote server). */
  pgCpuMs: number;
}

interface WriterAloneInput {
  memberId: string;
  sources: Array<{ raw: Buffer; seen: boolean; flagged: boolean; date: Date }>;
  pgCpuMs: () => number;
  /**
   * The listing's batches instead of whole messages: each source cut to the header lines a listing fetches (ingest's
   * `listedHeaderNames`), rows left body-pending, the first batch 200 and the rest 1,000 (../server/mail/imap/sync/folder-sync.ts).
   */
  listing?: boolean;
}

const batchSize = 200;
const listingBatchSize = 1_000;

/** The lines of `raw`'s header whose names are in `names` (the answer to `BODY.PEEK[HEADER.FIELDS (…)]`). */
function headerFields(raw: Buffer, names: ReadonlySet<string>): Buffer {
  const end = raw.indexOf('\r\n\r\n');
  const lines = raw.subarray(0, end < 0 ? raw.length : end).toString('latin1').split(/\r\n(?![ \t])/);
  const kept = lines.filter((line) => names.has(line.slice(0, line.indexOf(':')).trim().toLowerCase()));
  return Buffer.from(`${kept.join('\r\n')}\r\n\r\n`, 'latin1');
}

export async function measureWriterAlone(input: WriterAloneInput): Promise<WriterAlone> {
  const { db } = await import('../server/core/db');
  const { createMailbox } = await import('../server/testing/mail-factories');
  const { prepareMessage } = await import('../server/mail/mirror/rows');
  const { refreshMailboxStatistics, statisticsRefreshGrowth, writePrepared } = await import('../server/mail/mirror/writer');
  const { listedHeaderNames } = await import('../server/mail/ingest/ingest');
  const listed = new Set(listedHeaderNames.map((name) => name.toLowerCase()));
  const created = await createMailbox({ id: input.memberId }, { address: `writer-${randomUUID().slice(0, 8)}@example.test` });
  const mailbox = { id: created.id, memberId: input.memberId, address: created.address, syncMode: 'full' as const };
  const batches = [];
  for (let start = 0; start < input.sources.length; ) {
    const size = input.listing && start > 0 ? listingBatchSize : batchSize;
    const messages = input.sources.slice(start, start + size).map((source, offset) => {
      const uid = start + offset + 1;
      return {
        providerKey: `INBOX\n1\n${uid}`,
        folderKey: 'INBOX',
        labels: [],
        uid: BigInt(uid),
        uidValidity: 1n,
        modseq: null,
        flags: { seen: source.seen, flagged: source.flagged, draft: false, sent: false },
        internalDate: source.date,
        size: source.raw.length,
        ...(input.listing ? { source: headerFields(source.raw, listed), sourceComplete: false, bodyDeferred: true } : { source: source.raw, sourceComplete: true }),
      };
    });
    start += size;
    const batch = { ingestedVia: 'initial' as const, messages, flagUpdates: [], removedProviderKeys: [], cursors: [] };
    batches.push({ batch, prepared: await Promise.all(messages.map((message) => prepareMessage(mailbox, message, 'initial'))) });
  }
  const pgBefore = input.pgCpuMs();
  const begin = performance.now();
  // The statistics refreshed as a sync's sink does: after its first batch, then at each fourfold; a listing's sink
  // awaits only the first and runs the later ones beside the next batches (../server/mail/mirror/writer.ts).
  let written = 0;
  let refreshAt = batchSize;
  const beside: Promise<void>[] = [];
  for (const { batch, prepared } of batches) {
    written += (await writePrepared(mailbox, batch, prepared)).inserted;
    if (written < refreshAt) continue;
    const first = refreshAt === batchSize;
    while (refreshAt <= written) refreshAt *= statisticsRefreshGrowth;
    if (input.listing && !first) beside.push(refreshMailboxStatistics());
    else await refreshMailboxStatistics();
  }
  await Promise.all(beside);
  const result = { ms: performance.now() - begin, pgCpuMs: input.pgCpuMs() - pgBefore };
  await db().mailbox.update({ where: { id: mailbox.id }, data: { status: 'disconnected' } });
  return result;
}
