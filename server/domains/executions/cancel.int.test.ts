import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { jobKeys } from '../../core/jobs/catalogue';
import { createExecution, createStep } from '../../testing/execution-factories';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';

const databaseUrl = await useTestDatabase();

let member: TestMember;
let other: TestMember;
let workflow: { id: string };
let versionId: string;

beforeAll(async () => {
  member = await createMember();
  other = await createMember();
  const created = await createWorkflow(member);
  workflow = created.workflow;
  versionId = created.version!.id;
});

beforeEach(async () => {
  await db().executionStep.deleteMany();
  await db().execution.deleteMany();
  await db().$executeRawUnsafe('DELETE FROM graphile_worker._private_jobs');
});

const run = (options: Partial<Parameters<typeof createExecution>[1]> = {}, owner: TestMember = member) =>
  createExecution(owner, { workflowId: workflow.id, workflowVersionId: versionId, ...options });

const statusOf = async (id: string) => (await db().execution.findUniqueOrThrow({ where: { id } })).status;

async function jobExists(key: string): Promise<boolean> {
  const rows = await db().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = ${key}`;
  return (rows[0]?.n ?? 0) > 0;
}

/** Live events sent while `action` runs (the socket.io channel, as adapters see it). */
async function eventsDuring(action: () => Promise<unknown>): Promise<{ event: string; payload: unknown }[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const seen: { event: string; payload: unknown }[] = [];
  client.on('notification', (message) => {
    const parsed = JSON.parse(message.payload ?? '{}') as { data?: { packet?: { data?: [string, unknown] } } };
    const data = parsed.data?.packet?.data;
    if (data) seen.push({ event: data[0], payload: data[1] });
  });
  await client.query('LISTEN "socket.io#/"');
  try {
    await action();
    await client.query('SELECT 1');
    await sleep(50);
    return seen;
  } finally {
    await client.end();
  }
}

describe('POST /api/v1/executions/cancel', () => {
  it('cancels runs in progress and skips finished ones and ids that are not the member’s (spec: queued, running, waiting → cancelled)', async () => {
    const queued = await run({ status: 'queued' });
    const running = await run({ status: 'running' });
    const waiting = await run({ status: 'waiting', waitUntil: new Date(Date.now() + 3_600_000) });
    const done = await run({ status: 'succeeded' });
    const theirs = await run({ status: 'running' }, other);
    const unknown = '00000000-0000-4000-8000-000000000001';

    let response!: Awaited<ReturnType<typeof call>>;
    const events = await eventsDuring(async () => {
      response = await call('POST', '/api/v1/executions/cancel', { cookie: member.cookie, body: { ids: [queued.id, running.id, waiting.id, done.id, theirs.id, unknown] } });
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      cancelled: [queued.id, running.id, waiting.id],
      skipped: [
        { id: done.id, reason: 'finished' },
        { id: theirs.id, reason: 'not_found' },
        { id: unknown, reason: 'not_found' },
      ],
    });
    for (const id of [queued.id, running.id, waiting.id]) {
      const row = await db().execution.findUniqueOrThrow({ where: { id } });
      expect(row.status).toBe('cancelled');
      expect(row.finishedAt).not.toBeNull();
      // Waits are closed.
      expect(row.waitUntil).toBeNull();
    }
    expect(await statusOf(done.id)).toBe('succeeded');
    expect(await statusOf(theirs.id)).toBe('running');
    expect(events.filter((event) => event.event === 'execution.status').map((event) => event.payload)).toEqual(
      expect.arrayContaining([{ executionId: running.id, workflowId: workflow.id, status: 'cancelled' }]),
    );
  });

  it('cancels the runs they called (sub-workflows, loop iterations), recursively; done steps are not undone', async () => {
    const parent = await run({ status: 'running' });
    const child = await run({ status: 'running', parentExecutionId: parent.id, holdsSlot: false });
    const grandchild = await run({ status: 'waiting', parentExecutionId: child.id, holdsSlot: false });
    const finishedChild = await run({ status: 'succeeded', parentExecutionId: parent.id, holdsSlot: false });
    const doneStep = await createStep(parent.id, { nodeId: 'start', status: 'succeeded' });
    const waitingStep = await createStep(grandchild.id, { nodeId: 'wait', status: 'waiting' });

    const response = await call('POST', '/api/v1/executions/cancel', { cookie: member.cookie, body: { ids: [parent.id] } });
    expect(response.body.cancelled).toEqual([parent.id]);
    expect(await statusOf(child.id)).toBe('cancelled');
    expect(await statusOf(grandchild.id)).toBe('cancelled');
    expect(await statusOf(finishedChild.id)).toBe('succeeded');
    const keptStep = await db().executionStep.findUniqueOrThrow({ where: { id: doneStep.id } });
    expect(keptStep).toMatchObject({ status: 'succeeded', data: doneStep.data });
    const closed = await db().executionStep.findUniqueOrThrow({ where: { id: waitingStep.id } });
    expect(closed.finishedAt).not.toBeNull();
  });

  it('frees the slot: the oldest queued run of the workflow is asked to advance', async () => {
    const holder = await run({ status: 'running' });
    const oldestQueued = await run({ status: 'queued' });
    const laterQueued = await run({ status: 'queued' });
    await call('POST', '/api/v1/executions/cancel', { cookie: member.cookie, body: { ids: [holder.id] } });
    expect(await jobExists(jobKeys.execution(oldestQueued.id))).toBe(true);
    expect(await jobExists(jobKeys.execution(laterQueued.id))).toBe(false);
  });

  it('refuses more than 200 ids, none, and non-uuids with 400', async () => {
    const ids = Array.from({ length: 201 }, (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`);
    expect((await call('POST', '/api/v1/executions/cancel', { cookie: member.cookie, body: { ids } })).status).toBe(400);
    expect((await call('POST', '/api/v1/executions/cancel', { cookie: member.cookie, body: { ids: ids.slice(0, 200) } })).status).toBe(200);
    expect((await call('POST', '/api/v1/executions/cancel', { cookie: member.cookie, body: { ids: [] } })).status).toBe(400);
    expect((await call('POST', '/api/v1/executions/cancel', { cookie: member.cookie, body: { ids: ['nope'] } })).status).toBe(400);
  });

  it('needs executions:write', async () => {
    const { secret } = await createApiKeyFor(member, ['executions:read']);
    const refused = await call('POST', '/api/v1/executions/cancel', { key: secret, body: { ids: [workflow.id] } });
    expect(refused.body.error).toMatchObject({ code: 'api_key.scope_missing', details: { required: 'executions:write' } });
  });

  it('never overwrites a run finished first by a runner holding its row', async () => {
    const execution = await run({ status: 'running' });
    // A runner finishing the run holds the row lock; the cancel waits for it and then sees it finished.
    const runner = new pg.Client({ connectionString: databaseUrl });
    await runner.connect();
    try {
      await runner.query('BEGIN');
      await runner.query('SELECT id FROM executions WHERE id = $1 FOR UPDATE', [execution.id]);
      const cancelling = call('POST', '/api/v1/executions/cancel', { cookie: member.cookie, body: { ids: [execution.id] } });
      await sleep(100);
      await runner.query(`UPDATE executions SET status = 'succeeded', finished_at = now() WHERE id = $1`, [execution.id]);
      await runner.query('COMMIT');
      const response = await cancelling;
      expect(response.body).toEqual({ cancelled: [], skipped: [{ id: execution.id, reason: 'finished' }] });
      expect(await statusOf(execution.id)).toBe('succeeded');
    } finally {
      await runner.end();
    }
  });
});

describe('POST /api/v1/executions/{id}/cancel', () => {
  it('cancels one run with its called runs', async () => {
    const parent = await run({ status: 'waiting' });
    await run({ status: 'running', parentExecutionId: parent.id, holdsSlot: false });
    const response = await call('POST', `/api/v1/executions/${parent.id}/cancel`, { cookie: member.cookie });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: parent.id, status: 'cancelled', cancelledChildren: 1 });
  });

  it('answers a finished run with 409 execution.not_cancellable and another member’s with 404', async () => {
    const done = await run({ status: 'failed' });
    const finished = await call('POST', `/api/v1/executions/${done.id}/cancel`, { cookie: member.cookie });
    expect(finished.status).toBe(409);
    expect(finished.body.error.code).toBe('execution.not_cancellable');
    const theirs = await run({ status: 'running' }, other);
    const hidden = await call('POST', `/api/v1/executions/${theirs.id}/cancel`, { cookie: member.cookie });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.code).toBe('execution.not_found');
    expect(await statusOf(theirs.id)).toBe('running');
  });
});

describe('POST /api/v1/workflows/{id}/executions/cancel', () => {
  it('cancels the workflow’s runs in progress oldest first, `limit` at a time, with hasMore', async () => {
    const first = await run({ status: 'running' });
    const second = await run({ status: 'queued' });
    const third = await run({ status: 'waiting' });
    const done = await run({ status: 'succeeded' });
    const page = await call('POST', `/api/v1/workflows/${workflow.id}/executions/cancel`, { cookie: member.cookie, body: { limit: 2 } });
    expect(page.status).toBe(200);
    expect(page.body).toEqual({ cancelled: 2, hasMore: true });
    expect([await statusOf(first.id), await statusOf(second.id), await statusOf(third.id)]).toEqual(['cancelled', 'cancelled', 'waiting']);
    const rest = await call('POST', `/api/v1/workflows/${workflow.id}/executions/cancel`, { cookie: member.cookie });
    expect(rest.body).toEqual({ cancelled: 1, hasMore: false });
    expect(await statusOf(done.id)).toBe('succeeded');
  });

  it('answers another member’s workflow with 404 workflow.not_found, and a limit above 200 with 400', async () => {
    const theirs = await createWorkflow(other);
    const running = await createExecution(other, { workflowId: theirs.workflow.id, workflowVersionId: theirs.version!.id, status: 'running' });
    const hidden = await call('POST', `/api/v1/workflows/${theirs.workflow.id}/executions/cancel`, { cookie: member.cookie });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.code).toBe('workflow.not_found');
    expect(await statusOf(running.id)).toBe('running');
    expect((await call('POST', `/api/v1/workflows/${workflow.id}/executions/cancel`, { cookie: member.cookie, body: { limit: 201 } })).status).toBe(400);
  });
});
