/**
 * Undoing a run's mailbox changes through the API (issue 24 §4), on runs made by the real engine over
 * the mirror (no mail server: undo-dovecot.int.test.ts takes it to the real mailbox). A loop's
 * iterations label and move messages, the run drafts a message; the preview says what will be undone,
 * the undo does it through the webmail's own action, once.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../core/db';
import type { GraphInput } from '../../../engine/contract/graph';
import { startExecution } from '../../../engine/run/start';
import { actOnMessage } from '../../mail/threads/actions/service';
import { createApiKeyFor, createMember, type TestMember } from '../../../testing/factories';
import { createMailbox, createMessage } from '../../../testing/mail-factories';
import { call } from '../../../testing/rest-client';
import { createWorkflow } from '../../../testing/workflow-factories';
import { useEngineWorker, waitForExecution } from '../../../../runner/engine/testing/engine-worker';
import { undoTokenOf } from './service';

await useEngineWorker({ concurrency: 8 });
let member: TestMember;
let other: TestMember;
let mailbox: { id: string; address: string };

beforeAll(async () => {
  member = await createMember();
  other = await createMember();
  mailbox = await createMailbox(member, { address: 'desk@example.test' });
});

const trigger = { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} };
const node = (id: string, type: string, params: Record<string, unknown> = {}) => ({ id, type, version: 1, name: `Node ${id}`, params });
const line = (...ids: string[]) => ids.slice(0, -1).map((from, index) => ({ from, output: 'main', to: ids[index + 1] }));

/** Per item (a message id): label it `Processed`, then move it to the archive. */
async function sorterWorkflow() {
  const graph: GraphInput = {
    nodes: [
      trigger,
      node('label', 'mail.label', { messageId: '{{ trigger.item }}', add: ['Processed'] }),
      node('move', 'mail.move', { messageId: '{{ trigger.item }}', folder: 'Archive' }),
    ],
    connections: line('start', 'label', 'move'),
  };
  return (await createWorkflow(member, { graph, name: 'Sort one' })).workflow;
}

/** A run of a loop over `ids` (each sorted by `sorter`), then a draft (and a send, when asked), finished. */
async function sortingRun(ids: string[], options: { send?: boolean; workflowId?: string } = {}) {
  const sorter = await sorterWorkflow();
  const tail = [node('draft', 'mail.draft', { mailboxId: mailbox.id, to: ['client@example.test'], subject: 'Sorted', bodyText: 'Sorted your mail.' })];
  if (options.send) tail.push(node('send', 'mail.send', { mailboxId: mailbox.id, to: ['boss@example.test'], subject: 'Report', bodyText: 'Done.' }));
  const graph: GraphInput = {
    nodes: [trigger, node('loop', 'flow.loop', { workflowId: sorter.id, items: '{{ trigger.ids }}', concurrency: 4 }), ...tail],
    connections: line('start', 'loop', ...tail.map((step) => step.id)),
  };
  const created = options.workflowId ? null : await createWorkflow(member, { graph, name: 'Sort mail' });
  const workflowId = options.workflowId ?? created!.workflow.id;
  const versionId = created ? created.version!.id : (await db().workflow.findUniqueOrThrow({ where: { id: workflowId } })).publishedVersionId!;
  if (options.send) await db().workflow.update({ where: { id: workflowId }, data: { settings: { sendWithoutReview: true } } });
  const started = await startExecution({ memberId: member.id, workflowId, workflowVersionId: versionId, simulated: false, trigger: { type: 'webhook', nodeId: 'start', data: { ids } } });
  const done = await waitForExecution(started.id, { timeoutMs: 60_000 });
  expect(done.status).toBe('succeeded');
  return { execution: done, workflowId, versionId };
}

async function inboxMessages(count: number, prefix: string) {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) ids.push((await createMessage(mailbox, { subject: `${prefix} ${index}` })).id);
  return ids;
}

const mirror = async (ids: string[]) =>
  new Map((await db().mailMessage.findMany({ where: { id: { in: ids } }, select: { id: true, folderKey: true, labels: true } })).map((row) => [row.id, [row.folderKey, row.labels]]));

const draftOf = async (executionId: string) => db().outboundMessage.findFirstOrThrow({ where: { executionId, mode: 'draft' } });

describe('POST /api/v1/executions/{id}/undo/preview and /undo', () => {
  it('undoes what the run did, newest first, skips the message moved again by hand with its reason, discards the draft; once', async () => {
    const ids = await inboxMessages(5, 'Invoice');
    const { execution } = await sortingRun(ids);
    expect([...(await mirror(ids)).values()]).toEqual(ids.map(() => ['Archive', ['Processed']]));
    // Afterwards, by hand, in the webmail: one message moved again.
    await actOnMessage(member.id, { messageId: ids[2]!, action: 'move', folder: 'Junk', clientToken: 'by-hand-1' });
    expect((await call('GET', `/api/v1/executions/${execution.id}`, { cookie: member.cookie })).body.undo).toBeNull();

    const preview = await call('POST', `/api/v1/executions/${execution.id}/undo/preview`, { cookie: member.cookie });
    expect(preview.status).toBe(200);
    expect(preview.body.counts).toEqual({ willUndo: 9, skip: 2, sent: 0 });
    expect(preview.body.undoneAt).toBeNull();
    expect(preview.body.items[0]).toMatchObject({ effect: 'mail.draft', status: 'will_undo', action: { kind: 'discard_draft' }, subject: 'Sorted' });
    // Each item names its message by subject, as the member knows it.
    expect(preview.body.items.filter((item: { messageId: string }) => item.messageId === ids[3]).map((item: { subject: string }) => item.subject)).toEqual(['Invoice 3', 'Invoice 3']);
    const skipped = preview.body.items.filter((item: { status: string }) => item.status === 'skip');
    expect(skipped.map((item: { messageId: string; effect: string; reason: string }) => [item.messageId, item.effect, item.reason])).toEqual([
      [ids[2], 'mail.move', 'moved_since'],
      [ids[2], 'mail.label', 'moved_since'],
    ]);
    // Each message's move is undone before its label (newest first).
    const firstMessage = preview.body.items.filter((item: { messageId: string }) => item.messageId === ids[0]);
    expect(firstMessage.map((item: { action: unknown }) => item.action)).toEqual([
      { kind: 'message', messageId: ids[0], action: 'move', folder: 'INBOX' },
      { kind: 'message', messageId: ids[0], labels: { add: [], remove: ['Processed'] } },
    ]);
    // The preview changed nothing.
    expect((await mirror([ids[0]!])).get(ids[0]!)).toEqual(['Archive', ['Processed']]);

    const undone = await call('POST', `/api/v1/executions/${execution.id}/undo`, { cookie: member.cookie });
    expect(undone.status).toBe(200);
    expect(undone.body).toMatchObject({ executionId: execution.id, replayed: false, counts: { undone: 9, skipped: 2, failed: 0, sent: 0 } });
    const after = await mirror(ids);
    expect(ids.map((id) => after.get(id))).toEqual([
      ['INBOX', []],
      ['INBOX', []],
      ['Junk', ['Processed']],
      ['INBOX', []],
      ['INBOX', []],
    ]);
    expect(await draftOf(execution.id)).toMatchObject({ reviewStatus: 'rejected', sendStatus: 'cancelled', reviewReason: 'Undone with the run that made it.' });
    // Through the webmail's action layer: operations the runner applies to the real mailbox, one per record.
    const operations = await db().mailOperation.findMany({ where: { clientToken: { startsWith: 'undo:' }, messageId: { in: ids } } });
    expect(operations).toHaveLength(8);
    expect(operations.every((operation) => operation.status === 'pending')).toBe(true);
    const audit = await db().auditEntry.findMany({ where: { action: 'execution.undone', targetId: execution.id } });
    expect(audit).toMatchObject([{ actorMemberId: member.id, details: { undone: 9, skipped: 2, failed: 0, sent: 0 } }]);
    // The run's detail says so (what the run page shows after a reload).
    const detail = await call('GET', `/api/v1/executions/${execution.id}`, { cookie: member.cookie });
    expect(detail.body.undo).toEqual({
      status: 'done',
      undoneAt: undone.body.undoneAt,
      by: { memberId: member.id, apiKeyId: null },
      counts: { undone: 9, skipped: 2, failed: 0, sent: 0 },
    });

    // Again: nothing undone twice, the first answer.
    const again = await call('POST', `/api/v1/executions/${execution.id}/undo`, { cookie: member.cookie });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...undone.body, replayed: true });
    expect(await db().mailOperation.count({ where: { clientToken: { startsWith: 'undo:' }, messageId: { in: ids } } })).toBe(8);
    expect(await db().auditEntry.count({ where: { action: 'execution.undone', targetId: execution.id } })).toBe(1);
    const previewAfter = await call('POST', `/api/v1/executions/${execution.id}/undo/preview`, { cookie: member.cookie });
    expect(previewAfter.body.undoneAt).toBe(undone.body.undoneAt);
  });

  it('a send cannot be undone: listed as sent; the draft of the same run is still discarded', async () => {
    const ids = await inboxMessages(1, 'Note');
    const { execution } = await sortingRun(ids, { send: true });
    const send = await db().outboundMessage.findFirstOrThrow({ where: { executionId: execution.id, mode: 'send' } });
    await db().outboundMessage.update({ where: { id: send.id }, data: { sendStatus: 'done', sentAt: new Date() } });
    const undone = await call('POST', `/api/v1/executions/${execution.id}/undo`, { cookie: member.cookie });
    expect(undone.status).toBe(200);
    expect(undone.body.sent).toEqual([expect.objectContaining({ effect: 'mail.send', outboundId: send.id, to: ['boss@example.test'], subject: 'Report', sendStatus: 'done' })]);
    expect(undone.body.counts).toEqual({ undone: 3, skipped: 0, failed: 0, sent: 1 });
    expect(await draftOf(execution.id)).toMatchObject({ reviewStatus: 'rejected' });
  });

  it('a record written before undo records existed is skipped as not recorded', async () => {
    const ids = await inboxMessages(1, 'Old');
    const { execution } = await sortingRun(ids);
    const iteration = await db().execution.findFirstOrThrow({ where: { parentExecutionId: execution.id } });
    const effect = await db().executionEffect.findFirstOrThrow({ where: { executionId: iteration.id, kind: 'mail.move' } });
    const { undo: _dropped, ...older } = effect.result as Record<string, unknown>;
    await db().executionEffect.update({ where: { effectKey: effect.effectKey }, data: { result: older as object } });
    const preview = await call('POST', `/api/v1/executions/${execution.id}/undo/preview`, { cookie: member.cookie });
    expect(preview.body.items.find((item: { effect: string }) => item.effect === 'mail.move')).toMatchObject({ status: 'skip', reason: 'not_recorded', action: null });
    // The label, made before the move, is not undone either: the message is not where the label left it.
    expect(preview.body.items.find((item: { effect: string }) => item.effect === 'mail.label')).toMatchObject({ status: 'skip', reason: 'moved_since' });
  });

  it('who may undo: another member’s run is 404, a test run or a called run 409, a key needs the mailbox’s scopes', async () => {
    const ids = await inboxMessages(1, 'Scoped');
    const { execution } = await sortingRun(ids);
    for (const path of [`/api/v1/executions/${execution.id}/undo`, `/api/v1/executions/${execution.id}/undo/preview`]) {
      const foreign = await call('POST', path, { cookie: other.cookie });
      expect([foreign.status, foreign.body.error.code]).toEqual([404, 'execution.not_found']);
    }
    const iteration = await db().execution.findFirstOrThrow({ where: { parentExecutionId: execution.id } });
    const called = await call('POST', `/api/v1/executions/${iteration.id}/undo`, { cookie: member.cookie });
    expect([called.status, called.body.error.code, called.body.error.details]).toEqual([409, 'execution.not_undoable', { reason: 'called_run', parentExecutionId: execution.id }]);
    await db().execution.update({ where: { id: execution.id }, data: { simulated: true } });
    const test = await call('POST', `/api/v1/executions/${execution.id}/undo`, { cookie: member.cookie });
    expect(test.body.error).toMatchObject({ code: 'execution.not_undoable', details: { reason: 'test_run' } });
    // Waiting without a deadline: the sweeper leaves it alone.
    await db().execution.update({ where: { id: execution.id }, data: { simulated: false, status: 'waiting', waitUntil: null } });
    const running = await call('POST', `/api/v1/executions/${execution.id}/undo`, { cookie: member.cookie });
    expect(running.body.error).toMatchObject({ code: 'execution.not_undoable', details: { reason: 'not_finished' } });
    await db().execution.update({ where: { id: execution.id }, data: { status: 'succeeded' } });

    const executionsOnly = await createApiKeyFor(member, ['executions:write']);
    const noMail = await call('POST', `/api/v1/executions/${execution.id}/undo`, { key: executionsOnly.secret });
    expect([noMail.status, noMail.body.error.code, noMail.body.error.details.required]).toEqual([403, 'api_key.scope_missing', 'messages:write']);
    const noMailRead = await call('POST', `/api/v1/executions/${execution.id}/undo/preview`, { key: executionsOnly.secret });
    expect([noMailRead.status, noMailRead.body.error.details.required]).toEqual([403, 'messages:read']);
    const noReview = await createApiKeyFor(member, ['executions:write', 'messages:write']);
    const draftRefused = await call('POST', `/api/v1/executions/${execution.id}/undo`, { key: noReview.secret });
    expect([draftRefused.status, draftRefused.body.error.details.required]).toEqual([403, 'review:write']);
    // Refused before anything was claimed or undone.
    expect(await db().executionUndo.count({ where: { executionId: execution.id } })).toBe(0);
    expect((await mirror(ids)).get(ids[0]!)).toEqual(['Archive', ['Processed']]);
    const full = await createApiKeyFor(member, ['executions:write', 'messages:write', 'review:write']);
    const undone = await call('POST', `/api/v1/executions/${execution.id}/undo`, { key: full.secret });
    expect(undone.status).toBe(200);
    expect(undone.body.counts.undone).toBe(3);
    const detail = await call('GET', `/api/v1/executions/${execution.id}`, { cookie: member.cookie });
    expect(detail.body.undo).toMatchObject({ status: 'done', by: { memberId: member.id, apiKeyId: full.key.id } });
  });

  it('a claim held by a live call is 409 undo_in_progress; one whose holder died is taken over, what it made counted as made', async () => {
    const ids = await inboxMessages(2, 'Claimed');
    const { execution } = await sortingRun(ids);
    await db().executionUndo.create({ data: { executionId: execution.id, memberId: member.id } });
    const busy = await call('POST', `/api/v1/executions/${execution.id}/undo`, { cookie: member.cookie });
    expect([busy.status, busy.body.error.code]).toEqual([409, 'execution.undo_in_progress']);
    const whileHeld = await call('GET', `/api/v1/executions/${execution.id}`, { cookie: member.cookie });
    expect(whileHeld.body.undo).toEqual({ status: 'running', undoneAt: null, by: { memberId: member.id, apiKeyId: null }, counts: { undone: 0, skipped: 0, failed: 0, sent: 0 } });

    // The holder made the newest item (the draft's discard comes first; here, the first message's move) and died.
    const preview = await call('POST', `/api/v1/executions/${execution.id}/undo/preview`, { cookie: member.cookie });
    const firstMove = preview.body.items.find((item: { effect: string }) => item.effect === 'mail.move');
    await actOnMessage(member.id, { ...firstMove.action, clientToken: undoTokenOf(firstMove.effectKey) });
    const made = { ...firstMove, status: 'undone', reason: null };
    // It also took that message's label back, and died before recording it: known by its client token.
    const itsLabel = preview.body.items.find((item: { effect: string; messageId: string }) => item.effect === 'mail.label' && item.messageId === firstMove.messageId);
    await actOnMessage(member.id, { ...itsLabel.action, clientToken: undoTokenOf(itsLabel.effectKey) });
    await db().executionUndo.update({ where: { executionId: execution.id }, data: { items: [made], claimedAt: new Date(Date.now() - 10 * 60_000) } });
    const stopped = await call('GET', `/api/v1/executions/${execution.id}`, { cookie: member.cookie });
    expect(stopped.body.undo).toMatchObject({ status: 'interrupted', undoneAt: null, counts: { undone: 1, skipped: 0, failed: 0 } });

    const undone = await call('POST', `/api/v1/executions/${execution.id}/undo`, { cookie: member.cookie });
    expect(undone.status).toBe(200);
    expect(undone.body.counts).toEqual({ undone: 5, skipped: 0, failed: 0, sent: 0 });
    expect(undone.body.items[0]).toEqual(made);
    expect([...(await mirror(ids)).values()]).toEqual([
      ['INBOX', []],
      ['INBOX', []],
    ]);
    expect(await db().mailOperation.count({ where: { clientToken: undoTokenOf(firstMove.effectKey) } })).toBe(1);
    expect(await db().mailOperation.count({ where: { clientToken: undoTokenOf(itsLabel.effectKey) } })).toBe(1);
    expect(undone.body.items.find((item: { effectKey: string }) => item.effectKey === itsLabel.effectKey)).toMatchObject({ status: 'undone' });
  });
});

describe('POST /api/v1/workflows/{id}/executions/undo', () => {
  it('undoes the workflow’s runs of the window, newest first, `limit` per call, leaving undone runs out of the next call', async () => {
    const first = await sortingRun(await inboxMessages(1, 'Bulk A'));
    const ids = [await inboxMessages(1, 'Bulk B'), await inboxMessages(1, 'Bulk C')];
    const second = await sortingRun(ids[0]!, { workflowId: first.workflowId });
    const third = await sortingRun(ids[1]!, { workflowId: first.workflowId });
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const path = `/api/v1/workflows/${first.workflowId}/executions/undo`;
    // As if an email had started the second run: its headline names it.
    await db().execution.update({ where: { id: second.execution.id }, data: { messageHeadline: { subject: 'Bulk B arrived', fromName: 'Ann', fromEmail: 'ann@example.test' } } });

    const dry = await call('POST', path, { cookie: member.cookie, body: { from, dryRun: true } });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ count: 3, hasMore: false, dryRun: true, totals: { undone: 9, skipped: 0, failed: 0, sent: 0 } });
    expect(dry.body.runs.map((run: { executionId: string; outcome: string }) => [run.executionId, run.outcome])).toEqual([
      [third.execution.id, 'preview'],
      [second.execution.id, 'preview'],
      [first.execution.id, 'preview'],
    ]);
    // Each run as the member recognises it: when, and the email that started it (none: a webhook run).
    expect(dry.body.runs[0]).toMatchObject({ createdAt: third.execution.createdAt.toISOString(), subject: null });
    expect(dry.body.runs[1]).toMatchObject({ createdAt: second.execution.createdAt.toISOString(), subject: 'Bulk B arrived' });

    const page = await call('POST', path, { cookie: member.cookie, body: { from, limit: 2 } });
    expect(page.body).toMatchObject({ count: 2, hasMore: true, dryRun: false, totals: { undone: 6 } });
    expect(page.body.runs.map((run: { executionId: string }) => run.executionId)).toEqual([third.execution.id, second.execution.id]);
    const rest = await call('POST', path, { cookie: member.cookie, body: { from, limit: 2 } });
    expect(rest.body).toMatchObject({ count: 1, hasMore: false, runs: [{ executionId: first.execution.id, outcome: 'undone', error: null }] });
    const none = await call('POST', path, { cookie: member.cookie, body: { from } });
    expect(none.body).toMatchObject({ count: 0, hasMore: false, runs: [] });
  });

  it('a window over 30 days or ending before it starts is a 400; another member’s workflow is 404', async () => {
    const { workflowId } = await sortingRun(await inboxMessages(1, 'Window'));
    const path = `/api/v1/workflows/${workflowId}/executions/undo`;
    const long = await call('POST', path, { cookie: member.cookie, body: { from: new Date(Date.now() - 31 * 86_400_000).toISOString() } });
    expect([long.status, long.body.error.code]).toEqual([400, 'request.bad_request']);
    const backwards = await call('POST', path, { cookie: member.cookie, body: { from: '2026-06-02T00:00:00.000Z', to: '2026-06-01T00:00:00.000Z' } });
    expect(backwards.status).toBe(400);
    const foreign = await call('POST', path, { cookie: other.cookie, body: { from: new Date(Date.now() - 3_600_000).toISOString() } });
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'workflow.not_found']);
  });
});
