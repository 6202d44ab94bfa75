/**
 * Evaluation runs through the real engine (graphile-worker with the advance task and the sweeper):
 * started through the route, driven by the `eval.run` task's function, read back through the routes.
 * Figures follow mail dispatch's own trigger rule, nothing real happens (no outbound message, no
 * review item), runs are hidden from the executions list, baselines compare.
 */
import { randomUUID } from 'node:crypto';
import { run as runWorker } from 'graphile-worker';
import { beforeAll, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../core/config';
import { db } from '../../core/db';
import { resumeWithDecision } from '../../engine/run/resume';
import { startExecution } from '../../engine/run/start';
import type { GraphInput } from '../../engine/contract/graph';
import { createExecution, createStep } from '../../testing/execution-factories';
import { createMember, type TestMember } from '../../testing/factories';
import { createMailbox, createMessage, type TestMessageOptions } from '../../testing/mail-factories';
import { call } from '../../testing/rest-client';
import { createWorkflow } from '../../testing/workflow-factories';
import { useEngineWorker, waitForExecution } from '../../../runner/engine/testing/engine-worker';
import '../../../runner/engine/testing/fixture-nodes';
import { graphileLogger } from '../../../runner/graphile-logger';
import { evalRunTask } from '../../../runner/tasks/eval-run.task';
import { driveEvalRun } from './drive';
import { sweepEvalRuns } from './sweeper';

const databaseUrl = await useEngineWorker({ concurrency: 8 });
let member: TestMember;

beforeAll(async () => {
  member = await createMember();
});

type Node = { id: string; type: string; version: number; name: string; params: Record<string, unknown>; position: { x: number; y: number } };
const node = (id: string, type: string, params: Record<string, unknown> = {}): Node => ({ id, type, version: 1, name: id, params, position: { x: 0, y: 0 } });
const chain = (...nodes: Node[]): GraphInput => ({
  nodes,
  connections: nodes.slice(1).map((to, index) => ({ from: nodes[index].id, output: 'main', to: to.id })),
});
const draftReply = node('draft', 'mail.draft', { replyTo: {}, bodyText: 'Thanks, we got it.' });

async function mailboxWith(messages: (TestMessageOptions & { isFromSelf?: boolean })[]) {
  const mailbox = await createMailbox(member);
  const base = Date.now() - 3_600_000;
  const ids: string[] = [];
  for (const [index, { isFromSelf, ...options }] of messages.entries()) {
    const message = await createMessage(mailbox, { receivedAt: new Date(base + index * 60_000), ...options });
    if (isFromSelf) await db().mailMessage.update({ where: { id: message.id }, data: { isFromSelf: true } });
    ids.push(message.id);
  }
  return { mailbox, ids };
}

async function evaluate(workflowId: string, body: unknown = {}) {
  const started = await call('POST', `/api/v1/workflows/${workflowId}/eval-runs`, { cookie: member.cookie, body });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  const id = started.body.evalRun.id as string;
  while ((await driveEvalRun(id, { budgetMs: 60_000 })) === 'again');
  const run = await call('GET', `/api/v1/eval-runs/${id}`, { cookie: member.cookie });
  const cases = await call('GET', `/api/v1/eval-runs/${id}/cases?limit=200`, { cookie: member.cookie });
  return { run: run.body.evalRun, cases: cases.body.cases as CaseAnswer[] };
}

interface CaseAnswer {
  index: number;
  messageId: string | null;
  headline: { subject: string } | null;
  status: string;
  triggered: boolean;
  path: string[];
  effects: { kind: string; description: string }[];
  error: { code: string } | null;
  baseline: { triggered: boolean; path: string[]; effects: { kind: string }[]; error: unknown } | null;
  changed: boolean;
  executionId: string | null;
  baselineExecutionId: string | null;
}

const bySubject = (cases: CaseAnswer[]) => Object.fromEntries(cases.map((item) => [item.headline?.subject ?? String(item.index), item]));

describe('an evaluation over mirrored messages', () => {
  it('runs only the messages the trigger matches (by dispatch’s rule), counts would-be drafts, and makes nothing real', async () => {
    const { mailbox } = await mailboxWith([
      { subject: 'Invoice 1', fromEmail: 'billing@example.test' },
      { subject: 'Lunch?', fromEmail: 'friend@example.test' },
      { subject: 'Invoice 2', fromEmail: 'billing@example.test' },
      { subject: 'Invoice from myself', isFromSelf: true },
      { subject: 'Invoice from an excluded sender', fromEmail: 'x@blocked.test' },
      { subject: 'Invoice in the archive', folderKey: 'Archive' },
    ]);
    await db().senderExclusion.create({ data: { memberId: member.id, kind: 'domain', value: 'blocked.test' } });
    const { workflow } = await createWorkflow(member, { graph: chain(node('start', 'trigger.mail', { mailboxIds: [mailbox.id], subject: ['invoice'] }), draftReply), publish: false });

    const { run, cases } = await evaluate(workflow.id);
    expect(run).toMatchObject({
      status: 'succeeded',
      baseline: 'none',
      progress: { done: 6, total: 6 },
      figures: { triggered: 2, wouldSend: 0, wouldDraft: 2, errors: 0, changed: 0 },
      startedAt: expect.any(String),
      finishedAt: expect.any(String),
    });
    const found = bySubject(cases);
    for (const subject of ['Invoice 1', 'Invoice 2']) {
      expect(found[subject]).toMatchObject({ status: 'done', triggered: true, path: ['start', 'draft'], error: null, baseline: null, changed: false, executionId: expect.any(String) });
      expect(found[subject].effects).toEqual([{ kind: 'mail.draft', description: `Draft “Re: ${subject}” to 1 recipient(s)` }]);
    }
    for (const subject of ['Lunch?', 'Invoice from myself', 'Invoice from an excluded sender', 'Invoice in the archive']) {
      expect(found[subject]).toMatchObject({ status: 'done', triggered: false, path: [], effects: [], executionId: null });
    }
    expect(cases.map((item) => item.headline?.subject)).toEqual(['Invoice in the archive', 'Invoice from an excluded sender', 'Invoice from myself', 'Invoice 2', 'Lunch?', 'Invoice 1']);

    // Nothing real: no outbound message, no review item, no journal entry.
    expect(await db().outboundMessage.count()).toBe(0);
    const review = await call('GET', '/api/v1/review', { cookie: member.cookie });
    expect(review.status).toBe(200);
    expect(review.body).toMatchObject({ items: [], pendingCount: 0 });
    expect(await db().mailJournalEntry.count({ where: { mailboxId: mailbox.id } })).toBe(0);
    // Its runs are simulated, held no slot, and are not listed among executions.
    const executions = await db().execution.findMany({ where: { evalRunId: run.id } });
    expect(executions).toHaveLength(2);
    for (const execution of executions) expect(execution).toMatchObject({ simulated: true, holdsSlot: false, status: 'succeeded', workflowVersionId: run.versionId });
    const listed = await call('GET', `/api/v1/executions?workflowId=${workflow.id}`, { cookie: member.cookie });
    expect(listed.status).toBe(200);
    expect(listed.body.executions).toEqual([]);
    const waiting = await call('GET', '/api/v1/executions/waiting', { cookie: member.cookie });
    expect(JSON.stringify(waiting.body)).not.toContain(executions[0].id);
  });

  it('compares with the published version on the same cases: differences are `changed`, would-be sends counted', async () => {
    const { mailbox } = await mailboxWith([{ subject: 'Invoice 7' }, { subject: 'Order 8' }, { subject: 'Hello' }]);
    const published = chain(node('start', 'trigger.mail', { mailboxIds: [mailbox.id], subject: ['invoice'] }), draftReply);
    const { workflow } = await createWorkflow(member, { graph: published });
    // The draft also answers orders, and sends instead of drafting.
    const draft = chain(node('start', 'trigger.mail', { mailboxIds: [mailbox.id], subject: ['invoice', 'order'] }), node('send', 'mail.send', { replyTo: {}, bodyText: 'Thanks.' }));
    expect((await call('PUT', `/api/v1/workflows/${workflow.id}/graph`, { cookie: member.cookie, body: { graph: draft } })).status).toBe(200);

    const { run, cases } = await evaluate(workflow.id);
    expect(run).toMatchObject({ status: 'succeeded', baseline: 'published', baselineVersionId: workflow.publishedVersionId, figures: { triggered: 2, wouldSend: 2, wouldDraft: 0, errors: 0, changed: 2 } });
    const found = bySubject(cases);
    expect(found['Invoice 7']).toMatchObject({ triggered: true, path: ['start', 'send'], changed: true, baseline: { triggered: true, path: ['start', 'draft'], effects: [{ kind: 'mail.draft' }], error: null } });
    expect(found['Invoice 7'].baselineExecutionId).toEqual(expect.any(String));
    expect(found['Order 8']).toMatchObject({ triggered: true, path: ['start', 'send'], changed: true, baseline: { triggered: false, path: [], effects: [] }, baselineExecutionId: null });
    expect(found.Hello).toMatchObject({ triggered: false, changed: false, baseline: { triggered: false, path: [] } });
    const changedOnly = await call('GET', `/api/v1/eval-runs/${run.id}/cases?changed=true`, { cookie: member.cookie });
    expect(changedOnly.body.cases.map((item: CaseAnswer) => item.headline?.subject).sort()).toEqual(['Invoice 7', 'Order 8']);
    expect(await db().outboundMessage.count()).toBe(0);

    // The published version evaluated against itself changes nothing.
    const same = await evaluate(workflow.id, { versionId: workflow.publishedVersionId });
    expect(same.run.figures).toMatchObject({ triggered: 1, wouldDraft: 1, changed: 0 });
  });

  it('compares with the journal: the real run of the workflow on each message, if any', async () => {
    const { mailbox, ids } = await mailboxWith([{ subject: 'Invoice A' }, { subject: 'Invoice B' }, { subject: 'Other' }]);
    const graph = chain(node('start', 'trigger.mail', { mailboxIds: [mailbox.id], subject: ['invoice'] }), draftReply);
    const { workflow, version } = await createWorkflow(member, { graph });
    // What really happened: A was drafted as the draft would; B ran but stopped at the trigger (an older version).
    const realA = await createExecution(member, { workflowId: workflow.id, workflowVersionId: version!.id, status: 'succeeded', messageId: ids[0], mailboxId: mailbox.id });
    await createStep(realA.id, { nodeId: 'start', nodeType: 'trigger.mail', seq: 0 });
    await createStep(realA.id, { nodeId: 'draft', nodeType: 'mail.draft', seq: 1, effects: [{ kind: 'mail.draft', description: 'Draft “Re: Invoice A” to 1 recipient(s)' }] });
    const realB = await createExecution(member, { workflowId: workflow.id, workflowVersionId: version!.id, status: 'succeeded', messageId: ids[1], mailboxId: mailbox.id });
    await createStep(realB.id, { nodeId: 'start', nodeType: 'trigger.mail', seq: 0 });

    const { run, cases } = await evaluate(workflow.id, { baseline: 'journal' });
    expect(run).toMatchObject({ status: 'succeeded', baseline: 'journal', figures: { triggered: 2, wouldDraft: 2, changed: 1 } });
    const found = bySubject(cases);
    expect(found['Invoice A']).toMatchObject({ changed: false, baseline: { triggered: true, path: ['start', 'draft'] }, baselineExecutionId: realA.id });
    expect(found['Invoice B']).toMatchObject({ changed: true, baseline: { triggered: true, path: ['start'], effects: [] }, baselineExecutionId: realB.id });
    expect(found.Other).toMatchObject({ triggered: false, changed: false, baseline: { triggered: false, path: [] }, baselineExecutionId: null });
  });

  it('records a wait as where the run stops (the evaluation never waits)', async () => {
    const { mailbox } = await mailboxWith([{ subject: 'Slow one' }]);
    const { workflow } = await createWorkflow(member, {
      graph: chain(node('start', 'trigger.mail', { mailboxIds: [mailbox.id] }), node('pause', 'flow.wait', { mode: 'duration', amount: 2, unit: 'days' }), draftReply),
      publish: false,
    });
    const { run, cases } = await evaluate(workflow.id);
    expect(run).toMatchObject({ status: 'succeeded', figures: { triggered: 1, wouldDraft: 0, errors: 0 } });
    expect(cases[0]).toMatchObject({ status: 'done', triggered: true, path: ['start', 'pause'], effects: [], error: null });
    expect((await db().execution.findUniqueOrThrow({ where: { id: cases[0].executionId! } })).status).toBe('cancelled');
  });
});

describe('an evaluation over given trigger data', () => {
  it('runs every item (any trigger) and counts errors', async () => {
    const mailbox = await createMailbox(member);
    const { workflow } = await createWorkflow(member, {
      graph: chain(node('start', 'trigger.webhook'), node('draft', 'mail.draft', { mailboxId: mailbox.id, to: '{{ trigger.email }}', subject: 'Welcome', bodyText: 'Hi' })),
      publish: false,
    });
    const { run, cases } = await evaluate(workflow.id, { source: { kind: 'trigger_data', items: [{ email: 'lead@example.test' }, { email: 'not an address' }] } });
    expect(run).toMatchObject({ status: 'succeeded', source: { kind: 'trigger_data', count: 2 }, figures: { triggered: 2, wouldDraft: 1, errors: 1, changed: 0 } });
    expect(cases[0]).toMatchObject({ index: 0, messageId: null, headline: null, triggered: true, path: ['start', 'draft'], effects: [{ kind: 'mail.draft', description: 'Draft “Welcome” to 1 recipient(s)' }], error: null });
    expect(cases[1]).toMatchObject({ index: 1, triggered: true, path: ['start', 'draft'], effects: [], error: { code: 'invalid_parameter' } });
    expect(await db().outboundMessage.count()).toBe(0);
  });
});

describe('bounded calls hold for evaluations too (issue 18: runaway recursion)', () => {
  it('a case whose workflow loops over itself ends `sub_workflow_recursion`, no iteration started', async () => {
    const id = randomUUID();
    const { workflow } = await createWorkflow(member, { id, graph: chain(node('start', 'trigger.webhook'), node('loop', 'flow.loop', { workflowId: id, items: [1, 2] })) });
    const { run, cases } = await evaluate(workflow.id, { source: { kind: 'trigger_data', items: [{}] }, baseline: 'none' });
    expect(run.status).toBe('succeeded');
    expect(cases[0]).toMatchObject({ triggered: true, error: { code: 'sub_workflow_recursion' } });
    expect(await db().execution.count({ where: { parentExecutionId: cases[0].executionId } })).toBe(0);
  });

  it('a case waits in `pending` while the member’s runs holding no slot are at MEMBER_MAX_SLOTLESS_RUNS, and runs when room frees', async () => {
    const busy = await createMember();
    process.env.MEMBER_MAX_SLOTLESS_RUNS = '1';
    resetConfigForTests();
    try {
      // A test run waiting on a decision: the member's whole cap.
      const blocker = await createWorkflow(busy, { graph: chain(node('start', 'trigger.webhook'), node('ask', 'test.decision')) });
      const held = await startExecution({ memberId: busy.id, workflowId: blocker.workflow.id, workflowVersionId: blocker.version!.id, simulated: true, trigger: { type: 'webhook', nodeId: 'start', data: {} } });
      await waitForExecution(held.id, { statuses: ['waiting'] });
      const { workflow } = await createWorkflow(busy, { graph: chain(node('start', 'trigger.webhook')), publish: false });
      const started = await call('POST', `/api/v1/workflows/${workflow.id}/eval-runs`, { cookie: busy.cookie, body: { source: { kind: 'trigger_data', items: [{}] } } });
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      const id = started.body.evalRun.id as string;
      expect(await driveEvalRun(id, { budgetMs: 500 })).toBe('again');
      expect(await db().evalCase.findMany({ where: { evalRunId: id }, select: { status: true } })).toEqual([{ status: 'pending' }]);
      expect(await db().execution.count({ where: { evalRunId: id } })).toBe(0);
      expect(await db().$transaction((tx) => resumeWithDecision({ executionId: held.id, nodeId: 'ask', decision: 'approve' }, tx))).toBe(true);
      await waitForExecution(held.id);
      while ((await driveEvalRun(id, { budgetMs: 60_000 })) === 'again');
      expect(await db().evalRun.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'succeeded' });
      expect(await db().execution.count({ where: { evalRunId: id, status: 'succeeded' } })).toBe(1);
    } finally {
      delete process.env.MEMBER_MAX_SLOTLESS_RUNS;
      resetConfigForTests();
    }
  });
});

describe('cancelling an evaluation while it runs', () => {
  it('cancels its runs in progress and the cases not done; the driver stops', async () => {
    const { mailbox } = await mailboxWith(Array.from({ length: 12 }, (_, index) => ({ subject: `Case ${index}` })));
    const { workflow } = await createWorkflow(member, {
      graph: chain(node('start', 'trigger.mail', { mailboxIds: [mailbox.id] }), node('pause', 'flow.wait', { mode: 'duration', amount: 1, unit: 'days' })),
      publish: false,
    });
    const started = await call('POST', `/api/v1/workflows/${workflow.id}/eval-runs`, { cookie: member.cookie, body: {} });
    const id = started.body.evalRun.id as string;
    // One round: the first batch starts, then the driver hands over.
    expect(await driveEvalRun(id, { budgetMs: 0 })).toBe('again');
    const running = await db().evalCase.findMany({ where: { evalRunId: id, status: 'running' } });
    expect(running.length).toBeGreaterThan(0);
    expect(running.length).toBeLessThanOrEqual(8);
    const cancelled = await call('POST', `/api/v1/eval-runs/${id}/cancel`, { cookie: member.cookie, body: {} });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.evalRun.status).toBe('cancelled');
    expect(await driveEvalRun(id)).toBe('done');
    const executions = await db().execution.findMany({ where: { evalRunId: id } });
    expect(executions.length).toBe(running.length);
    for (const execution of executions) expect(['cancelled', 'succeeded', 'failed']).toContain(execution.status);
    expect(await db().execution.count({ where: { evalRunId: id, status: { in: ['queued', 'running', 'waiting'] } } })).toBe(0);
    expect(await db().evalCase.count({ where: { evalRunId: id, status: { in: ['pending', 'running'] } } })).toBe(0);
  });
});

describe('the evaluation sweeper', () => {
  it('gives a new job to an evaluation left without a live one (its runner died), and leaves driven ones alone', async () => {
    const { mailbox } = await mailboxWith([{ subject: 'Orphan' }]);
    const { workflow } = await createWorkflow(member, { graph: chain(node('start', 'trigger.mail', { mailboxIds: [mailbox.id] })), publish: false });
    const started = await call('POST', `/api/v1/workflows/${workflow.id}/eval-runs`, { cookie: member.cookie, body: {} });
    const id = started.body.evalRun.id as string;
    const jobsOf = async () => db().$queryRaw<{ locked: boolean }[]>`SELECT locked_at IS NOT NULL AS locked FROM graphile_worker.jobs WHERE key = ${`eval:${id}`}`;
    // Fresh, with its job: nothing to do.
    expect(await sweepEvalRuns()).toBe(0);
    // Its job was taken by a runner that died long ago.
    await db().$executeRaw`UPDATE graphile_worker._private_jobs SET locked_at = now() - interval '10 minutes', locked_by = 'dead' WHERE key = ${`eval:${id}`}`;
    await db().$executeRaw`UPDATE eval_runs SET created_at = now() - interval '5 minutes', status = 'running' WHERE id = ${id}::uuid`;
    expect(await sweepEvalRuns()).toBe(1);
    expect((await jobsOf()).filter((job) => !job.locked)).toHaveLength(1);
    expect(await sweepEvalRuns()).toBe(0);
    while ((await driveEvalRun(id, { budgetMs: 60_000 })) === 'again');
    expect((await db().evalRun.findUniqueOrThrow({ where: { id } })).status).toBe('succeeded');
    expect(await sweepEvalRuns()).toBe(0);
  });
});

describe('the eval.run task', () => {
  it('drives an evaluation started through the route to its end, in the runner’s job queue', async () => {
    const { mailbox } = await mailboxWith([{ subject: 'Invoice 9' }, { subject: 'Hi' }]);
    const { workflow } = await createWorkflow(member, { graph: chain(node('start', 'trigger.mail', { mailboxIds: [mailbox.id], subject: ['invoice'] }), draftReply), publish: false });
    const evalWorker = await runWorker({
      connectionString: databaseUrl,
      taskList: { [evalRunTask.name]: evalRunTask.task },
      logger: graphileLogger,
      noHandleSignals: true,
      preset: { worker: { concurrentJobs: 1, pollInterval: 100 } },
    });
    try {
      const started = await call('POST', `/api/v1/workflows/${workflow.id}/eval-runs`, { cookie: member.cookie, body: {} });
      const id = started.body.evalRun.id as string;
      let answer = started.body.evalRun;
      for (let polls = 0; polls < 300 && ['queued', 'running'].includes(answer.status); polls += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        answer = (await call('GET', `/api/v1/eval-runs/${id}`, { cookie: member.cookie })).body.evalRun;
      }
      expect(answer).toMatchObject({ status: 'succeeded', progress: { done: 2, total: 2 }, figures: { triggered: 1, wouldDraft: 1 } });
    } finally {
      await evalWorker.stop();
    }
  });
});

describe('"Try on my mail" reasons (issue 19 §3)', () => {
  it('each case not triggered says why (guardrail and the option that lets it in, the filter that did not match), and the run sums the reasons up, most frequent first', async () => {
    const { mailbox, ids } = await mailboxWith([
      { subject: 'Out of office 1', fromEmail: 'away1@example.test' },
      { subject: 'Invoice 9', fromEmail: 'billing@example.test' },
      { subject: 'Out of office 2', fromEmail: 'away2@example.test' },
      { subject: 'Weekly news', fromEmail: 'news@list.test' },
      { subject: 'Lunch?', fromEmail: 'friend@example.test' },
      { subject: 'Out of office 3', fromEmail: 'away3@example.test' },
      { subject: 'Invoice I sent', isFromSelf: true },
    ]);
    await db().mailMessage.updateMany({ where: { id: { in: [ids[0]!, ids[2]!, ids[5]!] } }, data: { isAutoReply: true } });
    await db().mailMessage.update({ where: { id: ids[3]! }, data: { isMailingList: true, isBulk: true } });
    const { workflow } = await createWorkflow(member, { graph: chain(node('start', 'trigger.mail', { mailboxIds: [mailbox.id], subject: ['invoice', 'office', 'news'] }), draftReply), publish: false });

    const { run, cases } = await evaluate(workflow.id);
    expect(run).toMatchObject({ status: 'succeeded', figures: { triggered: 1 } });
    const found = bySubject(cases) as Record<string, CaseAnswer & { reason: unknown }>;
    const autoReply = { verdict: 'guardrail', ruleRef: 'guardrail:auto_reply', param: 'includeAutoReplies' };
    for (const subject of ['Out of office 1', 'Out of office 2', 'Out of office 3']) expect(found[subject]!.reason).toEqual(autoReply);
    expect(found['Weekly news']!.reason).toEqual({ verdict: 'guardrail', ruleRef: 'guardrail:mailing_list', param: 'includeMailingLists' });
    expect(found['Lunch?']!.reason).toEqual({ verdict: 'filtered', ruleRef: null, param: 'subject' });
    expect(found['Invoice I sent']!.reason).toEqual({ verdict: 'guardrail', ruleRef: 'guardrail:from_self', param: null });
    // A triggered case has no reason: it reads by its path and effects.
    expect(found['Invoice 9']).toMatchObject({ triggered: true, reason: null, path: ['start', 'draft'] });

    expect(run.reasons).toEqual([
      { ...autoReply, count: 3 },
      { verdict: 'filtered', ruleRef: null, param: 'subject', count: 1 },
      { verdict: 'guardrail', ruleRef: 'guardrail:from_self', param: null, count: 1 },
      { verdict: 'guardrail', ruleRef: 'guardrail:mailing_list', param: 'includeMailingLists', count: 1 },
    ]);
    // The list of runs carries the same summary.
    const listed = await call('GET', `/api/v1/workflows/${workflow.id}/eval-runs?limit=1`, { cookie: member.cookie });
    expect(listed.body.evalRuns[0].reasons).toEqual(run.reasons);
  });
});
