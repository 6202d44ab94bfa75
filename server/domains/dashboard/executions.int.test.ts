import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createExecution, createIncident } from '../../testing/execution-factories';
import { createMember, type TestMember } from '../../testing/factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';

await useTestDatabase();

let member: TestMember;
let workflow: { id: string; versionId: string };

const from = new Date('2026-03-01T00:00:00.000Z');
const to = new Date('2026-03-08T00:00:00.000Z');
const week = `period=custom&from=${from.toISOString()}&to=${to.toISOString()}`;
/** An instant `days` (fractional) after the window's start. */
const day = (days: number) => new Date(from.getTime() + days * 86_400_000);
const statuses = ['queued', 'running', 'waiting', 'succeeded', 'failed', 'cancelled'] as const;
type Status = (typeof statuses)[number];

async function workflowOf(owner: TestMember, name: string) {
  const created = await createWorkflow(owner, { name });
  return { id: created.workflow.id, versionId: created.version!.id };
}

function run(options: { status: Status; createdAt: Date; durationMs?: number } & Partial<Parameters<typeof createExecution>[1]>, target = workflow, owner = member) {
  const { durationMs, ...rest } = options;
  return createExecution(owner, {
    workflowId: target.id,
    workflowVersionId: target.versionId,
    ...rest,
    ...(durationMs !== undefined ? { startedAt: options.createdAt, finishedAt: new Date(options.createdAt.getTime() + durationMs) } : {}),
  });
}

const figures = async (query: string, reader = member) => {
  const response = await call('GET', `/api/v1/dashboard/executions?${query}`, { cookie: reader.cookie });
  expect(response.status).toBe(200);
  return response.body;
};

const byStatus = (counts: Partial<Record<Status, number>>) => statuses.map((status) => ({ status, count: counts[status] ?? 0 }));

beforeAll(async () => {
  member = await createMember({ name: 'Ada Member' });
  workflow = await workflowOf(member, 'Invoices');
});

beforeEach(async () => {
  await db().incident.deleteMany();
  await db().execution.deleteMany();
});

describe('GET /api/v1/dashboard/executions: what is counted', () => {
  it('counts every status in fixed order with zeros, the previous period apart, the success rate and the exact median (percentile_cont)', async () => {
    await run({ status: 'queued', createdAt: from, startedAt: null, finishedAt: null });
    await run({ status: 'running', createdAt: day(1), finishedAt: null });
    await run({ status: 'succeeded', createdAt: day(1.5), durationMs: 1_000 });
    await run({ status: 'succeeded', createdAt: day(2), durationMs: 3_000 });
    await run({ status: 'succeeded', createdAt: day(3), durationMs: 2_000 });
    await run({ status: 'failed', createdAt: day(6.9), durationMs: 4_000 });
    // A cancelled run that never started has no duration: it does not enter the median.
    await run({ status: 'cancelled', createdAt: day(4), startedAt: null, finishedAt: day(4.1) });
    // The previous period is [from − 7 days, from); `to` itself is outside.
    await run({ status: 'succeeded', createdAt: new Date(from.getTime() - 1), durationMs: 500 });
    await run({ status: 'failed', createdAt: day(-7), durationMs: 700 });
    await run({ status: 'succeeded', createdAt: to, durationMs: 10 });
    await run({ status: 'failed', createdAt: day(-7.01), durationMs: 10 });

    const body = await figures(week);
    expect(body.window).toMatchObject({ from: from.toISOString(), to: to.toISOString(), previousFrom: day(-7).toISOString(), bucket: 'day' });
    expect(body.current).toEqual({ total: 7, byStatus: byStatus({ queued: 1, running: 1, succeeded: 3, failed: 1, cancelled: 1 }), successRate: 0.75, medianDurationMs: 2_500 });
    expect(body.previous).toEqual({ total: 2, byStatus: byStatus({ succeeded: 1, failed: 1 }), successRate: 0.5, medianDurationMs: 600 });
  });

  it('answers null rates and medians, zero series and empty lists when nothing ran', async () => {
    await run({ status: 'running', createdAt: day(1), finishedAt: null });
    const body = await figures(week);
    expect(body.current).toEqual({ total: 1, byStatus: byStatus({ running: 1 }), successRate: null, medianDurationMs: null });
    expect(body.previous).toEqual({ total: 0, byStatus: byStatus({}), successRate: null, medianDurationMs: null });
    expect(body.series.find((entry: { status: string }) => entry.status === 'succeeded').values).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(body.topWorkflows).toHaveLength(1);
    expect(body.failingWorkflows).toEqual([]);
    expect(body.recentFailures).toEqual([]);
  });

  it('gives one value per bucket for each of the six statuses, summing to current.byStatus', async () => {
    await run({ status: 'succeeded', createdAt: from });
    await run({ status: 'succeeded', createdAt: day(0.99) });
    await run({ status: 'failed', createdAt: day(2.5) });
    await run({ status: 'waiting', createdAt: day(6.999) });
    const body = await figures(week);
    expect(body.window.buckets).toHaveLength(7);
    expect(body.series.map((entry: { status: string }) => entry.status)).toEqual([...statuses]);
    const values = Object.fromEntries(body.series.map((entry: { status: string; values: number[] }) => [entry.status, entry.values]));
    expect(values.succeeded).toEqual([2, 0, 0, 0, 0, 0, 0]);
    expect(values.failed).toEqual([0, 0, 1, 0, 0, 0, 0]);
    expect(values.waiting).toEqual([0, 0, 0, 0, 0, 0, 1]);
    for (const entry of body.series as { status: Status; values: number[] }[]) {
      expect(entry.values.reduce((sum, value) => sum + value, 0)).toBe(body.current.byStatus.find((item: { status: string }) => item.status === entry.status).count);
    }
  });

  it('leaves out test runs, evaluation runs and loop iterations; counts sub-workflow runs, error-workflow runs and replays', async () => {
    const parent = await run({ status: 'succeeded', createdAt: day(1) });
    await run({ status: 'succeeded', createdAt: day(1), simulated: true });
    await run({ status: 'failed', createdAt: day(1), simulated: true, evalRunId: '00000000-0000-4000-8000-000000000001' });
    await run({ status: 'failed', createdAt: day(1), startedBy: 'loop_iteration', parentExecutionId: parent.id });
    await run({ status: 'failed', createdAt: day(1), startedBy: 'sub_workflow', parentExecutionId: parent.id });
    await run({ status: 'succeeded', createdAt: day(1), startedBy: 'error_workflow' });
    await run({ status: 'succeeded', createdAt: day(1), startedBy: 'replay', retryOfExecutionId: parent.id });
    const body = await figures(week);
    expect(body.current.byStatus).toEqual(byStatus({ succeeded: 3, failed: 1 }));
  });

  it('counts exactly what the executions list shows for the same workflow, status and window (the drill-down)', async () => {
    const parent = await run({ status: 'failed', createdAt: day(2) });
    await run({ status: 'failed', createdAt: day(3) });
    await run({ status: 'failed', createdAt: day(3), startedBy: 'sub_workflow', parentExecutionId: parent.id });
    await run({ status: 'failed', createdAt: day(3), startedBy: 'loop_iteration', parentExecutionId: parent.id });
    await run({ status: 'failed', createdAt: day(3), simulated: true });
    await run({ status: 'failed', createdAt: to });
    await run({ status: 'succeeded', createdAt: day(3) });
    const body = await figures(`${week}&workflowId=${workflow.id}`);
    const counted = body.failingWorkflows[0].failed;
    expect(counted).toBe(3);
    const list = await call(
      'GET',
      `/api/v1/executions?workflowId=${workflow.id}&status=failed&simulated=false&loopIterations=false&from=${from.toISOString()}&to=${to.toISOString()}`,
      { cookie: member.cookie },
    );
    expect(list.status).toBe(200);
    expect(list.body.executions).toHaveLength(counted);
  });
});

describe('GET /api/v1/dashboard/executions: workflows and failures', () => {
  it('ranks up to 5 workflows by runs (ties by name) and up to 5 failing ones by failures, with owner name and last run', async () => {
    const names = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot'];
    const flows = await Promise.all(names.map((name) => workflowOf(member, name)));
    // Runs: Alpha 1, Bravo 3, Charlie 2, Delta 2, Echo 1, Foxtrot 4; failures: Alpha 1, Charlie 2, Echo 1.
    const plan: [number, Status[]][] = [
      [0, ['failed']],
      [1, ['succeeded', 'succeeded', 'running']],
      [2, ['failed', 'failed']],
      [3, ['succeeded', 'succeeded']],
      [4, ['failed']],
      [5, ['succeeded', 'succeeded', 'succeeded', 'queued']],
    ];
    for (const [index, runs] of plan) {
      for (const [position, status] of runs.entries()) await run({ status, createdAt: day(1 + position) }, flows[index]);
    }
    const body = await figures(week);
    expect(body.topWorkflows.map((item: { name: string }) => item.name)).toEqual(['Foxtrot', 'Bravo', 'Charlie', 'Delta', 'Alpha']);
    expect(body.failingWorkflows.map((item: { name: string }) => item.name)).toEqual(['Charlie', 'Alpha', 'Echo']);
    expect(body.topWorkflows[0]).toEqual({ workflowId: flows[5]!.id, name: 'Foxtrot', memberName: 'Ada Member', total: 4, succeeded: 3, failed: 0, lastRunAt: day(4).toISOString() });
    expect(body.failingWorkflows[0]).toEqual({ workflowId: flows[2]!.id, name: 'Charlie', memberName: 'Ada Member', total: 2, succeeded: 0, failed: 2, lastRunAt: day(2).toISOString() });
  });

  it('lists the 10 latest failures of the window from their incidents, with the error code and acknowledged', async () => {
    const failures = [];
    for (let index = 0; index < 11; index += 1) {
      const execution = await run({
        status: 'failed',
        createdAt: day(index * 0.5),
        error: { code: index === 10 ? 'smtp_refused' : 'http_status', message: 'x', nodeId: 'call', kind: 'permanent', attempts: 1 },
      });
      failures.push({ execution, incident: await createIncident(member, execution, { failedAt: day(index * 0.5 + 0.01), acknowledgedAt: index === 9 ? day(6) : null }) });
    }
    // Failed before the window: not listed even though its incident is recent.
    const before = await run({ status: 'failed', createdAt: day(-1) });
    await createIncident(member, before, { failedAt: day(5.9) });

    const body = await figures(week);
    expect(body.recentFailures).toHaveLength(10);
    expect(body.recentFailures.map((item: { executionId: string }) => item.executionId)).toEqual(failures.slice(1).reverse().map((entry) => entry.execution.id));
    const latest = failures[10]!;
    expect(body.recentFailures[0]).toEqual({
      executionId: latest.execution.id,
      incidentId: latest.incident.id,
      workflowId: workflow.id,
      workflowName: 'Invoices',
      memberName: 'Ada Member',
      failedAt: day(5.01).toISOString(),
      errorCode: 'smtp_refused',
      errorSummary: 'HTTP node answered 500',
      nodeId: 'call',
      nodeName: 'Call',
      acknowledged: false,
    });
    expect(body.recentFailures[1]).toMatchObject({ executionId: failures[9]!.execution.id, acknowledged: true, errorCode: 'http_status' });
  });
});

describe('GET /api/v1/dashboard/executions: buckets in the reader’s zone', () => {
  it('places runs on Europe/Paris days across the spring change (29 March 2026 has 23 hours)', async () => {
    // 27 March 00:00 in Paris (UTC+1) to 31 March 00:00 (UTC+2).
    const query = 'period=custom&from=2026-03-26T23:00:00Z&to=2026-03-30T22:00:00Z&tz=Europe/Paris';
    await run({ status: 'succeeded', createdAt: new Date('2026-03-28T23:30:00Z') }); // 29 March 00:30 in Paris
    await run({ status: 'succeeded', createdAt: new Date('2026-03-28T22:30:00Z') }); // 28 March 23:30 in Paris
    await run({ status: 'failed', createdAt: new Date('2026-03-29T21:30:00Z') }); // 29 March 23:30 in Paris (summer time)
    const body = await figures(query);
    expect(body.window.buckets).toEqual(['2026-03-26T23:00:00.000Z', '2026-03-27T23:00:00.000Z', '2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z']);
    const values = Object.fromEntries(body.series.map((entry: { status: string; values: number[] }) => [entry.status, entry.values]));
    expect(values.succeeded).toEqual([0, 1, 1, 0]);
    expect(values.failed).toEqual([0, 0, 1, 0]);
  });
});
