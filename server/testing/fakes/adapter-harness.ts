/**
 * Drives a provider adapter the way the sync orchestrator does, against the test database: a mailbox
 * of a new member, the folder list mirrored before each sync (`folders()`), a SyncContext read from
 * the stored folders and cursors (`context()`), the real mirror writer as the sink, and the mirrored
 * rows for assertions. Integration tests only (needs `useTestDatabase()`).
 */
import { db } from '../../core/db';
import { createMirrorSink, type MirrorMailbox } from '../../mail/mirror/writer';
import type { MailProvider, MailProviderAdapter, ProviderFolder, SyncContext } from '../../mail/provider';
import { createMember } from '../factories';
import { createMailbox } from '../mail-factories';

export interface AdapterHarness {
  mailbox: MirrorMailbox;
  adapter: MailProviderAdapter;
  /** Every call of the adapter's access-token source, in order. */
  tokenCalls: ({ forceRefresh?: boolean } | undefined)[];
  folders(): Promise<ProviderFolder[]>;
  context(overrides?: Partial<SyncContext>): Promise<SyncContext>;
  rows(): Promise<MirroredRow[]>;
}

export interface MirroredRow {
  providerKey: string;
  folderKey: string;
  labels: string[];
  seen: boolean;
  flagged: boolean;
  draft: boolean;
  subject: string | null;
  ingestedVia: string;
  bodyComplete: boolean;
  receivedAt: Date;
}

let serial = 0;

export async function adapterHarness(
  provider: Exclude<MailProvider, 'imap'>,
  create: (options: { mailboxId: string; address: string; accessToken: (request?: { forceRefresh?: boolean }) => Promise<string> }) => MailProviderAdapter,
  options: { tokens: string[]; initialSince: Date },
): Promise<AdapterHarness> {
  serial += 1;
  const member = await createMember();
  const row = await createMailbox(member, { provider, folders: false, address: `me-${serial}@example.test` });
  const mailbox: MirrorMailbox = { id: row.id, memberId: member.id, address: row.address, syncMode: 'full' };
  const tokenCalls: AdapterHarness['tokenCalls'] = [];
  const adapter = create({
    mailboxId: mailbox.id,
    address: mailbox.address,
    accessToken: (request) => {
      tokenCalls.push(request);
      return Promise.resolve(options.tokens[Math.min(tokenCalls.length - 1, options.tokens.length - 1)]);
    },
  });
  const sink = createMirrorSink(mailbox);
  return {
    mailbox,
    adapter,
    tokenCalls,
    async folders() {
      const folders = await adapter.listFolders();
      for (const folder of folders) {
        const data = {
          role: folder.role,
          name: folder.name,
          parentKey: folder.parentKey,
          depth: folder.depth,
          delimiter: folder.delimiter,
          providerId: folder.providerId,
          selectable: folder.selectable,
          color: folder.color ?? null,
        };
        await db().mailFolder.upsert({ where: { mailboxId_key: { mailboxId: mailbox.id, key: folder.key } }, create: { mailboxId: mailbox.id, key: folder.key, ...data }, update: data });
      }
      return folders;
    },
    async context(overrides = {}) {
      const stored = await db().mailFolder.findMany({ where: { mailboxId: mailbox.id }, orderBy: { key: 'asc' } });
      return {
        mailboxId: mailbox.id,
        address: mailbox.address,
        syncMode: 'full',
        folders: stored.map((folder) => ({
          key: folder.key,
          name: folder.name,
          role: folder.role as ProviderFolder['role'],
          parentKey: folder.parentKey,
          depth: folder.depth,
          delimiter: folder.delimiter,
          providerId: folder.providerId,
          selectable: folder.selectable,
          deltaToken: folder.deltaToken,
        })),
        sink,
        signal: new AbortController().signal,
        initialSince: options.initialSince,
        initialMaxPerFolder: 1000,
        ...overrides,
      };
    },
    rows: () =>
      db().mailMessage.findMany({
        where: { mailboxId: mailbox.id },
        select: { providerKey: true, folderKey: true, labels: true, seen: true, flagged: true, draft: true, subject: true, ingestedVia: true, bodyComplete: true, receivedAt: true },
        orderBy: [{ receivedAt: 'desc' }, { providerKey: 'asc' }],
      }),
  };
}

/** A context whose sink aborts the run after its `after`-th commit (a runner killed between batches). */
export function abortingAfter(context: SyncContext, after: number, reason = 'lease lost'): SyncContext {
  const controller = new AbortController();
  let commits = 0;
  const sink = context.sink;
  return {
    ...context,
    signal: controller.signal,
    sink: {
      resetFolder: (folderKey, uidValidity) => sink.resetFolder(folderKey, uidValidity),
      mirroredKeys: (prefix) => sink.mirroredKeys(prefix),
      known: sink.known ? (keys) => sink.known!(keys) : undefined,
      fillBodies: (batch) => sink.fillBodies(batch),
      commit: async (batch) => {
        const result = await sink.commit(batch);
        commits += 1;
        if (commits === after) controller.abort(new Error(reason));
        return result;
      },
    },
  };
}

/** Syncs as the orchestrator does until the initial pass is complete (at most 50 passes); a provider failure ends it. */
export async function syncToTheEnd(harness: AdapterHarness): Promise<void> {
  await harness.folders();
  for (let pass = 0; pass < 50; pass += 1) {
    const outcome = await harness.adapter.syncDelta(await harness.context());
    if (outcome.initialComplete) return;
  }
  throw new Error('the initial sync did not complete in 50 passes');
}
