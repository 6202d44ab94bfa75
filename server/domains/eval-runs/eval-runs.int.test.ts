/**
 * The evaluation runs' routes without the runner: starting (defaults, sources, baselines, every
 * refusal), reading, listing, the cases' cursor list and its bounds, cancelling, another member's
 * resources, scopes and idempotency. server/domains/eval-runs/drive.int.test.ts runs evaluations through the engine.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { createMailbox, createMessage } from '../../testing/mail-factories';
import { prototypeNames } from '../../testing/prototype-names';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow, webhookGraph } from '../../testing/workflow-factories';
import type { GraphInput } from '../../engine/contract/graph';

await useTestDatabase();

let owner: TestMember;
let other: TestMember;
let mailbox: { id: string };

const mailGraph = (params: Record<string, unknown> = {}): GraphInput => ({
  nodes: [{ id: 'start', type: 'trigger.mail', version: 1, name: 'Mail', params, position: { x: 0, y: 0 } }],
  connections: [],
});

beforeAll(async () => {
  owner = await createMember({ name: 'Owner' });
  other = await createMember({ name: 'Other' });
  mailbox = await createMailbox(owner);
  const base = Date.now() - 3_600_000;
  for (let index = 0; index < 5; index += 1) await createMessage(mailbox, { subject: `Message ${index}`, receivedAt: new Date(base + index * 60_000) });
});

const start = (workflowId: string, body: unknown = {}, member: TestMember = owner, headers: Record<string, string> = {}) =>
  call('POST', `/api/v1/workflows/${workflowId}/eval-runs`, { cookie: member.cookie, body, headers });

async function mailWorkflow(options: { publish?: boolean; graph?: GraphInput } = {}) {
  const { workflow } = await createWorkflow(owner, { graph: options.graph ?? mailGraph(), publish: options.publish ?? false });
  return workflow.id;
}

describe('POST /api/v1/workflows/{id}/eval-runs', () => {
  it('starts a queued evaluation of a snapshot of the draft over the last mirrored messages, newest first (202, defaults)', async () => {
    const id = await mailWorkflow();
    const response = await start(id);
    expect(response.status, JSON.stringify(response.body)).toBe(202);
    const run = response.body.evalRun;
    expect(run).toMatchObject({
      workflowId: id,
      baseline: 'none',
      baselineVersionId: null,
      source: { kind: 'recent', limit: 200 },
      status: 'queued',
      progress: { done: 0, total: 5 },
      figures: { triggered: 0, wouldSend: 0, wouldDraft: 0, errors: 0, changed: 0 },
      error: null,
      startedAt: null,
      finishedAt: null,
    });
    const snapshot = await db().workflowVersion.findUniqueOrThrow({ where: { id: run.versionId } });
    expect(snapshot).toMatchObject({ workflowId: id, number: null, note: 'evaluation', triggerType: 'mail' });
    const cases = await call('GET', `/api/v1/eval-runs/${run.id}/cases`, { cookie: owner.cookie });
    expect(cases.status).toBe(200);
    expect(cases.body.cases.map((item: { headline: { subject: string } }) => item.headline.subject)).toEqual(['Message 4', 'Message 3', 'Message 2', 'Message 1', 'Message 0']);
    expect(cases.body.cases[0]).toMatchObject({ index: 0, status: 'pending', triggered: null, path: [], effects: [], error: null, baseline: null, changed: false, executionId: null });
    // The snapshot is not a version of the workflow, and the runner has its job.
    expect((await call('GET', `/api/v1/workflows/${id}/versions`, { cookie: owner.cookie })).body.versions).toEqual([]);
    const jobs = await db().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = ${`eval:${run.id}`}`;
    expect(jobs[0].n).toBe(1);
  });

  it('compares with the published version by default when there is one; takes a range, a limit and a chosen version', async () => {
    const id = await mailWorkflow({ publish: true });
    const workflow = await db().workflow.findUniqueOrThrow({ where: { id } });
    const byDefault = await start(id, { source: { kind: 'recent', limit: 2 } });
    expect(byDefault.status, JSON.stringify(byDefault.body)).toBe(202);
    expect(byDefault.body.evalRun).toMatchObject({ baseline: 'published', baselineVersionId: workflow.publishedVersionId, progress: { total: 2 } });
    await call('POST', `/api/v1/eval-runs/${byDefault.body.evalRun.id}/cancel`, { cookie: owner.cookie, body: {} });

    const from = new Date(Date.now() - 3_600_000 + 60_000).toISOString();
    const to = new Date(Date.now() - 3_600_000 + 3 * 60_000).toISOString();
    const ranged = await start(id, { source: { kind: 'range', from, to }, baseline: 'journal', versionId: workflow.publishedVersionId });
    expect(ranged.status, JSON.stringify(ranged.body)).toBe(202);
    expect(ranged.body.evalRun).toMatchObject({ versionId: workflow.publishedVersionId, baseline: 'journal', source: { kind: 'range', from, to, limit: 200 }, progress: { total: 2 } });
  });

  it('takes given trigger data (any trigger), one case each, and keeps prototype-named keys as data', async () => {
    const { workflow } = await createWorkflow(owner, { graph: webhookGraph(), publish: false });
    const items = prototypeNames.filter((name) => name !== '__proto__').map((name) => ({ [name]: { [name]: 1 } }));
    const response = await start(workflow.id, { source: { kind: 'trigger_data', items } });
    expect(response.status, JSON.stringify(response.body)).toBe(202);
    expect(response.body.evalRun).toMatchObject({ source: { kind: 'trigger_data', count: items.length }, progress: { total: items.length } });
    const stored = await db().evalCase.findMany({ where: { evalRunId: response.body.evalRun.id }, orderBy: { index: 'asc' } });
    expect(stored.map((item) => item.triggerData)).toEqual(items);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses an item keyed __proto__ (400) and leaves nothing behind', async () => {
    const { workflow } = await createWorkflow(owner, { graph: webhookGraph(), publish: false });
    const response = await call('POST', `/api/v1/workflows/${workflow.id}/eval-runs`, {
      cookie: owner.cookie,
      rawBody: '{"source":{"kind":"trigger_data","items":[{"__proto__":{"polluted":1}}]}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
    expect(await db().evalRun.count({ where: { workflowId: workflow.id } })).toBe(0);
  });

  it.each([
    ['a limit above 200', { source: { kind: 'recent', limit: 201 } }],
    ['a limit of 0', { source: { kind: 'recent', limit: 0 } }],
    ['a range that ends before it starts', { source: { kind: 'range', from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' } }],
    ['more than 50 items', { source: { kind: 'trigger_data', items: Array.from({ length: 51 }, () => ({})) } }],
    ['no items', { source: { kind: 'trigger_data', items: [] } }],
    ['an unknown source', { source: { kind: 'everything' } }],
    ['an unknown baseline', { baseline: 'yesterday' }],
    ['an unknown field in a source', { source: { kind: 'recent', limit: 5, extra: 1 } }],
  ])('answers 400 request.bad_request for %s', async (_label, body) => {
    const id = await mailWorkflow();
    const response = await start(id, body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });

  it('answers 400 workflow.trigger_data_too_large for an item above 256 KB', async () => {
    const { workflow } = await createWorkflow(owner, { graph: webhookGraph(), publish: false });
    const response = await start(workflow.id, { source: { kind: 'trigger_data', items: [{}, { blob: 'x'.repeat(256 * 1024) }] } });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'workflow.trigger_data_too_large', details: { index: 1 } });
  });

  it('answers 404 workflow.not_found for another member’s, an unknown or a malformed workflow id', async () => {
    const { workflow: theirs } = await createWorkflow(other, { graph: mailGraph() });
    for (const id of [theirs.id, randomUUID(), 'not-a-uuid']) {
      const response = await start(id);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('workflow.not_found');
    }
    expect(await db().evalRun.count({ where: { workflowId: theirs.id } })).toBe(0);
  });

  it('answers 404 workflow.version_not_found for a version of another workflow', async () => {
    const id = await mailWorkflow();
    const { version } = await createWorkflow(owner, { graph: mailGraph() });
    for (const versionId of [version!.id, randomUUID()]) {
      const response = await start(id, { versionId });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('workflow.version_not_found');
    }
  });

  it('answers 400 workflow.invalid_graph for an invalid draft and 409 workflow.not_published for a published baseline without one', async () => {
    const id = await mailWorkflow();
    const notPublished = await start(id, { baseline: 'published' });
    expect(notPublished.status).toBe(409);
    expect(notPublished.body.error.code).toBe('workflow.not_published');
    await db().workflow.update({ where: { id }, data: { graph: { nodes: [{ id: 'x', type: 'gone.type', version: 1, name: 'x' }], connections: [] } } });
    const invalid = await start(id);
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('workflow.invalid_graph');
  });

  it('answers 409 eval.source_unsupported for messages and a trigger that is not mail, 409 eval.no_cases when the scope has no message', async () => {
    const { workflow } = await createWorkflow(owner, { graph: webhookGraph(), publish: false });
    const unsupported = await start(workflow.id);
    expect(unsupported.status).toBe(409);
    expect(unsupported.body.error).toMatchObject({ code: 'eval.source_unsupported', details: { triggerType: 'webhook' } });
    const emptyBox = await createMailbox(owner);
    const id = await mailWorkflow({ graph: mailGraph({ mailboxIds: [emptyBox.id] }) });
    const none = await start(id);
    expect(none.status).toBe(409);
    expect(none.body.error.code).toBe('eval.no_cases');
    const window = await start(await mailWorkflow(), { source: { kind: 'range', from: '2001-01-01T00:00:00Z', to: '2001-01-02T00:00:00Z' } });
    expect(window.status).toBe(409);
    expect(window.body.error.code).toBe('eval.no_cases');
  });

  it('takes only the messages of the trigger’s mailboxes', async () => {
    const box = await createMailbox(owner);
    await createMessage(box, { subject: 'Only this one' });
    const response = await start(await mailWorkflow({ graph: mailGraph({ mailboxIds: [box.id] }) }));
    expect(response.status).toBe(202);
    const cases = await call('GET', `/api/v1/eval-runs/${response.body.evalRun.id}/cases`, { cookie: owner.cookie });
    expect(cases.body.cases.map((item: { headline: { subject: string } }) => item.headline.subject)).toEqual(['Only this one']);
  });

  it('runs one evaluation of a workflow at a time (409 eval.already_running with its id)', async () => {
    const id = await mailWorkflow();
    const first = await start(id);
    const second = await start(id);
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({ code: 'eval.already_running', details: { evalRunId: first.body.evalRun.id } });
  });

  it('replays an answer for the same Idempotency-Key (one run)', async () => {
    const id = await mailWorkflow();
    const key = randomUUID();
    const first = await start(id, {}, owner, { 'idempotency-key': key });
    const again = await start(id, {}, owner, { 'idempotency-key': key });
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(await db().evalRun.count({ where: { workflowId: id } })).toBe(1);
  });

  it('needs workflows:write for a key (and messages:read and contacts:read for a mail trigger’s graph, which reads the sender’s card); workflows:read reads', async () => {
    const id = await mailWorkflow();
    const { secret: readKey } = await createApiKeyFor(owner, ['workflows:read']);
    const refused = await call('POST', `/api/v1/workflows/${id}/eval-runs`, { key: readKey, body: {} });
    expect(refused.status).toBe(403);
    const { secret: withoutCards } = await createApiKeyFor(owner, ['workflows:write', 'workflows:read', 'messages:read']);
    const noCards = await call('POST', `/api/v1/workflows/${id}/eval-runs`, { key: withoutCards, body: {} });
    expect(noCards.status).toBe(403);
    expect(noCards.body.error).toMatchObject({ code: 'api_key.scope_missing', details: { required: 'contacts:read' } });
    const { secret: writeKey } = await createApiKeyFor(owner, ['workflows:write', 'workflows:read', 'messages:read', 'contacts:read']);
    const started = await call('POST', `/api/v1/workflows/${id}/eval-runs`, { key: writeKey, body: {} });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const read = await call('GET', `/api/v1/eval-runs/${started.body.evalRun.id}`, { key: readKey });
    expect(read.status).toBe(200);
    expect(read.body.evalRun.id).toBe(started.body.evalRun.id);
  });
});

describe('GET /api/v1/eval-runs/{id} and GET /api/v1/workflows/{id}/eval-runs', () => {
  it('reads a run; another member’s, an unknown or a malformed id is 404 eval.not_found', async () => {
    const id = await mailWorkflow();
    const started = await start(id);
    const read = await call('GET', `/api/v1/eval-runs/${started.body.evalRun.id}`, { cookie: owner.cookie });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(started.body);
    for (const [member, runId] of [
      [other, started.body.evalRun.id],
      [owner, randomUUID()],
      [owner, 'nope'],
    ] as const) {
      for (const path of [`/api/v1/eval-runs/${runId}`, `/api/v1/eval-runs/${runId}/cases`]) {
        const response = await call('GET', path, { cookie: member.cookie });
        expect(response.status, path).toBe(404);
        expect(response.body.error.code).toBe('eval.not_found');
      }
      const cancel = await call('POST', `/api/v1/eval-runs/${runId}/cancel`, { cookie: member.cookie, body: {} });
      expect(cancel.status).toBe(404);
      expect(cancel.body.error.code).toBe('eval.not_found');
    }
  });

  it('lists the workflow’s latest runs newest first (limit 1-50); another member’s workflow is 404', async () => {
    const id = await mailWorkflow();
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      const started = await start(id);
      ids.push(started.body.evalRun.id);
      await call('POST', `/api/v1/eval-runs/${started.body.evalRun.id}/cancel`, { cookie: owner.cookie, body: {} });
    }
    const list = await call('GET', `/api/v1/workflows/${id}/eval-runs`, { cookie: owner.cookie });
    expect(list.status).toBe(200);
    expect(list.body.evalRuns.map((run: { id: string }) => run.id)).toEqual([...ids].reverse());
    const two = await call('GET', `/api/v1/workflows/${id}/eval-runs?limit=2`, { cookie: owner.cookie });
    expect(two.body.evalRuns).toHaveLength(2);
    expect((await call('GET', `/api/v1/workflows/${id}/eval-runs?limit=51`, { cookie: owner.cookie })).status).toBe(400);
    const theirs = await call('GET', `/api/v1/workflows/${id}/eval-runs`, { cookie: other.cookie });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.code).toBe('workflow.not_found');
  });
});

describe('GET /api/v1/eval-runs/{id}/cases', () => {
  it('pages 50 by default, at most 200, with a stable cursor; 201 is a 400', async () => {
    const box = await createMailbox(owner);
    const base = Date.now() - 86_400_000;
    for (let index = 0; index < 210; index += 1) await createMessage(box, { subject: `Bulk ${index}`, receivedAt: new Date(base + index * 1000) });
    const started = await start(await mailWorkflow({ graph: mailGraph({ mailboxIds: [box.id] }) }));
    expect(started.body.evalRun.progress.total).toBe(200);
    const runId = started.body.evalRun.id;

    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { status: number; body: { cases: { index: number }[]; nextCursor: string | null } } = await call('GET', `/api/v1/eval-runs/${runId}/cases${cursor ? `?cursor=${cursor}` : ''}`, { cookie: owner.cookie });
      expect(page.status).toBe(200);
      expect(page.body.cases.length).toBeLessThanOrEqual(50);
      seen.push(...page.body.cases.map((item) => item.index));
      cursor = page.body.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(4);
    expect(seen).toEqual(Array.from({ length: 200 }, (_, index) => index));

    const all = await call('GET', `/api/v1/eval-runs/${runId}/cases?limit=200`, { cookie: owner.cookie });
    expect(all.body.cases).toHaveLength(200);
    expect(all.body.nextCursor).toBeNull();
    expect(all.body.cases[0].headline.subject).toBe('Bulk 209');
    for (const limit of ['201', '0', 'x']) {
      const refused = await call('GET', `/api/v1/eval-runs/${runId}/cases?limit=${limit}`, { cookie: owner.cookie });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('request.bad_request');
    }
    // An unreadable cursor starts from the beginning rather than failing.
    const garbage = await call('GET', `/api/v1/eval-runs/${runId}/cases?cursor=${encodeURIComponent('{"i":-1}')}&limit=1`, { cookie: owner.cookie });
    expect(garbage.status).toBe(200);
    expect(garbage.body.cases[0].index).toBe(0);
  });

  it('filters on changed and outcome', async () => {
    const started = await start(await mailWorkflow(), { source: { kind: 'recent', limit: 3 } });
    const runId = started.body.evalRun.id;
    const [first, second] = await db().evalCase.findMany({ where: { evalRunId: runId }, orderBy: { index: 'asc' } });
    await db().evalCase.update({ where: { id: first.id }, data: { status: 'done', triggered: true, changed: true, effects: [{ kind: 'mail.draft', description: 'Draft' }] } });
    await db().evalCase.update({ where: { id: second.id }, data: { status: 'done', triggered: false, error: { code: 'x', message: 'y' } } });
    const indexes = async (query: string) => (await call('GET', `/api/v1/eval-runs/${runId}/cases?${query}`, { cookie: owner.cookie })).body.cases.map((item: { index: number }) => item.index);
    expect(await indexes('changed=true')).toEqual([0]);
    expect(await indexes('changed=false')).toEqual([1, 2]);
    expect(await indexes('outcome=triggered')).toEqual([0]);
    expect(await indexes('outcome=not_triggered')).toEqual([1]);
    expect(await indexes('outcome=error')).toEqual([1]);
    expect(await indexes('outcome=effects')).toEqual([0]);
  });
});

describe('POST /api/v1/eval-runs/{id}/cancel', () => {
  it('cancels a queued run and its cases; a finished one is 409 eval.not_cancellable', async () => {
    const id = await mailWorkflow();
    const started = await start(id);
    const cancelled = await call('POST', `/api/v1/eval-runs/${started.body.evalRun.id}/cancel`, { cookie: owner.cookie, body: {} });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.evalRun).toMatchObject({ status: 'cancelled', finishedAt: expect.any(String) });
    expect(await db().evalCase.count({ where: { evalRunId: started.body.evalRun.id, status: { not: 'cancelled' } } })).toBe(0);
    const again = await call('POST', `/api/v1/eval-runs/${started.body.evalRun.id}/cancel`, { cookie: owner.cookie, body: {} });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('eval.not_cancellable');
    // A new evaluation may start once the previous one ended.
    expect((await start(id)).status).toBe(202);
  });
});
