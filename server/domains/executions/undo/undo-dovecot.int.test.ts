/**
 * Evidence for issue 24 §4 against a real Dovecot: a run (a loop's 20 iterations) labels and moves 20
 * messages and drafts a message; the runner applies it all to the mailbox; one message is moved again
 * by hand in another mail client. The undo restores 19 and skips 1 with its reason, and the draft
 * leaves the review queue and the Drafts folder: all of it through the webmail's action layer and the
 * runner's own jobs, checked on the server.
 */
import { randomUUID } from 'node:crypto';
import type { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../core/db';
import type { GraphInput } from '../../../engine/contract/graph';
import { startExecution } from '../../../engine/run/start';
import { labelToKeyword } from '../../../mail/imap/sync/flags';
import { placeDraft, removeDraft } from '../../../mail/send/drafts';
import { createMember, type TestMember } from '../../../testing/factories';
import { createImapMailbox } from '../../../testing/imap-mailbox';
import { appendMessages, buildRawMessage, openTestImap } from '../../../testing/mail-servers/deliver';
import { startDovecot, type DovecotServer, type MailUser } from '../../../testing/mail-servers/dovecot';
import { call } from '../../../testing/rest-client';
import { useTestDatabase } from '../../../testing/test-database';
import { createWorkflow } from '../../../testing/workflow-factories';
import { startEngineWorker, waitForExecution, type EngineWorker } from '../../../../runner/engine/testing/engine-worker';
import { MailboxSession } from '../../../../runner/mail/session';

const databaseUrl = await useTestDatabase();
let server: DovecotServer;
let worker: EngineWorker;
let member: TestMember;

beforeAll(async () => {
  server = await startDovecot({ users: [] });
  worker = await startEngineWorker(databaseUrl, { concurrency: 8 });
  member = await createMember();
});
afterAll(async () => {
  await worker?.stop();
  await server?.stop();
});

const trigger = { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} };
const node = (id: string, type: string, params: Record<string, unknown> = {}) => ({ id, type, version: 1, name: `Node ${id}`, params });
const line = (...ids: string[]) => ids.slice(0, -1).map((from, index) => ({ from, output: 'main', to: ids[index + 1] }));

async function withImap<T>(user: MailUser, use: (client: ImapFlow) => Promise<T>): Promise<T> {
  const client = await openTestImap({ server, ...user });
  try {
    return await use(client);
  } finally {
    await client.logout().catch(() => client.close());
  }
}

/** Each folder's messages on the server: [Message-ID, keywords (not system flags)]. */
async function serverFolders(user: MailUser, folders: string[]) {
  return withImap(user, async (client) => {
    const seen: Record<string, [string, string[]][]> = {};
    for (const folder of folders) {
      const box = await client.mailboxOpen(folder);
      const entries = box.exists > 0 ? await client.fetchAll('1:*', { uid: true, flags: true, envelope: true }) : [];
      seen[folder] = entries
        .map((entry): [string, string[]] => [entry.envelope?.messageId ?? '', [...(entry.flags ?? [])].filter((flag) => !flag.startsWith('\\')).sort()])
        .sort((a, b) => a[0].localeCompare(b[0]));
    }
    return seen;
  });
}

describe('undo against Dovecot (issue 24 §4 evidence)', () => {
  it('a run that labelled and moved 20 messages, one moved again by hand: 19 restored, 1 skipped with its reason; the draft removed', { timeout: 180_000 }, async () => {
    const user: MailUser = { user: `undo-${randomUUID().slice(0, 8)}@example.test`, password: `pw-${randomUUID()}` };
    await server.addUser(user);
    const mailbox = await createImapMailbox(member, server, user);
    // The folder list read again on every delta: the folder made by hand below is mirrored at once.
    const session = new MailboxSession(mailbox.id, { folderListEveryMs: 0 });
    const sync = async (work: { operations?: boolean; delta?: boolean } = { delta: true }) => {
      const result = await session.run(work, new AbortController().signal);
      if (result.outcome === 'failed') throw new Error(`sync failed: ${JSON.stringify(result.failure)}`);
      return result;
    };
    const headers = Array.from({ length: 20 }, (_, index) => `<undo-${String(index).padStart(2, '0')}@example.test>`);
    await appendMessages(
      { server, ...user },
      await Promise.all(headers.map(async (messageId, index) => ({ raw: await buildRawMessage({ from: 'Supplier <billing@supplier.test>', to: user.user, subject: `Invoice ${index}`, text: `Invoice ${index}`, messageId }) }))),
    );
    await sync();
    const mirrored = await db().mailMessage.findMany({ where: { mailboxId: mailbox.id, folderKey: 'INBOX' }, orderBy: { messageIdHeader: 'asc' } });
    expect(mirrored.map((message) => message.messageIdHeader)).toEqual(headers);
    const ids = mirrored.map((message) => message.id);

    // The run: each iteration labels its message `Processed` and files it in Archive; then a draft.
    const sorter = await createWorkflow(member, {
      name: 'File one invoice',
      graph: {
        nodes: [trigger, node('label', 'mail.label', { messageId: '{{ trigger.item }}', add: ['Processed'] }), node('move', 'mail.move', { messageId: '{{ trigger.item }}', folder: 'Archive' })],
        connections: line('start', 'label', 'move'),
      },
    });
    const graph: GraphInput = {
      nodes: [
        trigger,
        node('loop', 'flow.loop', { workflowId: sorter.workflow.id, items: '{{ trigger.ids }}', concurrency: 5 }),
        node('draft', 'mail.draft', { mailboxId: mailbox.id, to: ['accounts@example.test'], subject: '20 invoices filed', bodyText: 'Filed.' }),
      ],
      connections: line('start', 'loop', 'draft'),
    };
    const { workflow, version } = await createWorkflow(member, { name: 'File invoices', graph });
    const started = await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, simulated: false, trigger: { type: 'webhook', nodeId: 'start', data: { ids } } });
    const run = await waitForExecution(started.id, { timeoutMs: 120_000 });
    expect(run.status).toBe('succeeded');

    // The runner's jobs: the draft placed in Drafts, the operations applied to the mailbox.
    const draft = await db().outboundMessage.findFirstOrThrow({ where: { executionId: run.id, mode: 'draft' } });
    expect(await placeDraft(draft.id)).toBe('placed');
    await sync({ operations: true, delta: true });
    expect(await db().mailOperation.count({ where: { mailboxId: mailbox.id, status: { not: 'done' } } })).toBe(0);
    const processed = labelToKeyword('Processed');
    const filed = await serverFolders(user, ['INBOX', 'Archive', 'Drafts']);
    expect(filed.INBOX).toEqual([]);
    expect(filed.Archive).toEqual(headers.map((header) => [header, [processed]]));
    expect(filed.Drafts).toHaveLength(1);

    // By hand, in another mail client: one invoice moved on to a folder of its own.
    const movedByHand = headers[7]!;
    await withImap(user, async (client) => {
      await client.mailboxCreate('Receipts');
      await client.mailboxOpen('Archive');
      const [uid] = (await client.search({ header: { 'message-id': movedByHand } }, { uid: true })) || [];
      expect(uid).toBeDefined();
      await client.messageMove(String(uid), 'Receipts', { uid: true });
    });
    await sync();
    expect(await db().mailMessage.findFirst({ where: { mailboxId: mailbox.id, messageIdHeader: movedByHand } })).toMatchObject({ folderKey: 'Receipts' });

    const preview = await call('POST', `/api/v1/executions/${run.id}/undo/preview`, { cookie: member.cookie });
    expect(preview.status).toBe(200);
    expect(preview.body.counts).toEqual({ willUndo: 39, skip: 2, sent: 0 });

    const undone = await call('POST', `/api/v1/executions/${run.id}/undo`, { cookie: member.cookie });
    expect(undone.status).toBe(200);
    expect(undone.body.counts).toEqual({ undone: 39, skipped: 2, failed: 0, sent: 0 });
    // Per message: 19 restored (their move and label undone), 1 skipped with its reason.
    const byMessage = new Map<string, string[]>();
    for (const item of undone.body.items as { messageId: string | null; status: string; reason: string | null }[]) {
      if (item.messageId) byMessage.set(item.messageId, [...(byMessage.get(item.messageId) ?? []), item.reason ?? item.status]);
    }
    const outcomes = ids.map((id) => byMessage.get(id)!.join(','));
    expect(outcomes.filter((outcome) => outcome === 'undone,undone')).toHaveLength(19);
    expect(outcomes[7]).toBe('moved_since,moved_since');
    expect(undone.body.items.find((item: { effect: string }) => item.effect === 'mail.draft')).toMatchObject({ status: 'undone', outboundId: draft.id });

    // The runner applies the undo to the mailbox and removes the draft's copy (its mail.remove-draft job).
    await sync({ operations: true, delta: true });
    expect(await db().mailOperation.count({ where: { mailboxId: mailbox.id, status: { not: 'done' } } })).toBe(0);
    expect(await removeDraft(draft.id)).toBe('removed');
    const restored = await serverFolders(user, ['INBOX', 'Archive', 'Receipts', 'Drafts']);
    expect(restored.INBOX).toEqual(headers.filter((header) => header !== movedByHand).map((header) => [header, []]));
    expect(restored.Archive).toEqual([]);
    expect(restored.Receipts).toEqual([[movedByHand, [processed]]]);
    expect(restored.Drafts).toEqual([]);
    expect(await db().outboundMessage.findUniqueOrThrow({ where: { id: draft.id } })).toMatchObject({ reviewStatus: 'rejected', draftProviderKey: null });
    await sync();
    const mirror = await db().mailMessage.findMany({ where: { mailboxId: mailbox.id, folderKey: { in: ['INBOX', 'Archive', 'Receipts'] } }, select: { messageIdHeader: true, folderKey: true, labels: true } });
    expect(mirror.filter((row) => row.folderKey === 'INBOX' && row.labels.length === 0)).toHaveLength(19);
    expect(mirror.filter((row) => row.folderKey === 'Receipts')).toEqual([{ messageIdHeader: movedByHand, folderKey: 'Receipts', labels: ['Processed'] }]);
    await session.close();
  });
});
