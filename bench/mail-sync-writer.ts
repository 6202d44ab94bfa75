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
}

const batchSize = 200;

export async function measureWriterAlone(input: WriterAloneInput): Promise<WriterAlone> {
  const { db } = await import('../server/core/db');
  const { createMailbox } = await import('../server/testing/mail-factories');
  const { prepareMessage } = await import('../server/mail/mirror/rows');
  const { refreshMailboxStatistics, writePrepared } = await import('../server/mail/mirror/writer');
  const created = await createMailbox({ id: input.memberId }, { address: `writer-${randomUUID().slice(0, 8)}@example.test` });
  const mailbox = { id: created.id, memberId: input.memberId, address: created.address, syncMode: 'full' as const };
  const batches = [];
  for (let start = 0; start < input.sources.length; start += batchSize) {
    const messages = input.sources.slice(start, start + batchSize).map((source, offset) => {
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
        source: source.raw,
        sourceComplete: true,
      };
    });
    const batch = { ingestedVia: 'initial' as const, messages, flagUpdates: [], removedProviderKeys: [], cursors: [] };
    batches.push({ batch, prepared: await Promise.all(messages.map((message) => prepareMessage(mailbox, message, 'initial'))) });
  }
  const pgBefore = input.pgCpuMs();
  const begin = performance.now();
  // The statistics refreshed as a sync's sink does: after its first batch, then at each doubling.
  let written = 0;
  let refreshAt = batchSize;
  for (const { batch, prepared } of batches) {
    written += (await writePrepared(mailbox, batch, prepared)).inserted;
    if (written < refreshAt) continue;
    while (refreshAt <= written) refreshAt *= 2;
    await refreshMailboxStatistics();
  }
  const result = { ms: performance.now() - begin, pgCpuMs: input.pgCpuMs() - pgBefore };
  await db().mailbox.update({ where: { id: mailbox.id }, data: { status: 'disconnected' } });
  return result;
}
