/**
 * Durability (issue 8, Evidence): 200 webhook executions of a 5-node workflow (webhook → set → if →
 * set → HTTP request to a local sink that records each call's idempotency key) while real runner
 * processes are SIGKILLed three times, two runners running together for part of it. Afterwards every
 * execution has ended (none lost, none stuck), the sink saw no key twice (an HTTP call cut off is
 * `step_effect_uncertain`, never retried blindly), and the report says how many steps ended so.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runnerProcesses } from '../testing/runner-processes';
import { db } from '../../server/core/db';
import { startExecution } from '../../server/engine/run/start';
import { createMember } from '../../server/testing/factories';
import { useTestDatabase } from '../../server/testing/test-database';
import { createWorkflow } from '../../server/testing/workflow-factories';
import { crashWorkflowGraph } from './testing/crash-graph';
import { startEffectSink, type EffectSink } from './testing/effect-sink';

const databaseUrl = await useTestDatabase();
const total = 200;

let sink: EffectSink;
const runners = runnerProcesses({ DATABASE_URL: databaseUrl, HTTP_NODE_ALLOW_HOSTS: '127.0.0.1' });

beforeAll(async () => {
  // Slow enough that kills land during calls.
  sink = await startEffectSink('/hook', 40);
});

afterAll(async () => {
  runners.killAll();
  await sink.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function progress(workflowId: string): Promise<{ open: number; finished: number }> {
  const rows = await db().execution.groupBy({ by: ['status'], where: { workflowId }, _count: true });
  const count = (statuses: string[]) => rows.filter((row) => statuses.includes(row.status)).reduce((sum, row) => sum + row._count, 0);
  return { open: count(['queued', 'running', 'waiting']), finished: count(['succeeded', 'failed', 'cancelled']) };
}

/** Waits until `finished` executions have ended, or the deadline. */
async function until(workflowId: string, finished: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && (await progress(workflowId)).finished < finished) await sleep(100);
}

it('200 runs survive three SIGKILLs of their runners: all end, none is lost or stuck, no call is made twice', async () => {
  const member = await createMember();
  const { workflow, version } = await createWorkflow(member, { graph: crashWorkflowGraph(sink.url) });
  await db().workflow.update({ where: { id: workflow.id }, data: { maxConcurrency: 50 } });
  for (let index = 0; index < total; index += 1) {
    await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'webhook', nodeId: 'start', data: { index, amount: index % 7 } } });
  }

  let first = runners.start();
  await until(workflow.id, 20, 30_000);
  const second = runners.start(); // two runners together for a while
  await until(workflow.id, 50, 30_000);
  await runners.kill(first); // kill 1
  first = runners.start();
  await until(workflow.id, 90, 30_000);
  await runners.kill(second); // kill 2
  await until(workflow.id, 130, 30_000);
  await runners.kill(first); // kill 3: no runner left for a moment
  await sleep(500);
  runners.start();
  await until(workflow.id, total, 90_000);

  const executions = await db().execution.findMany({ where: { workflowId: workflow.id }, include: { steps: true } });
  const statuses = new Map<string, number>();
  for (const execution of executions) statuses.set(execution.status, (statuses.get(execution.status) ?? 0) + 1);
  const uncertainSteps = executions.flatMap((execution) => execution.steps).filter((step) => (step.error as { code?: string } | null)?.code === 'step_effect_uncertain').length;
  const interruptedAttempts = executions.flatMap((execution) => execution.steps).flatMap((step) => (Array.isArray(step.attempts) ? (step.attempts as { interrupted?: boolean }[]) : [])).filter((attempt) => attempt.interrupted).length;
  console.log(`crash report: ${JSON.stringify(Object.fromEntries(statuses))}; step_effect_uncertain steps: ${uncertainSteps}; interrupted attempts: ${interruptedAttempts}; sink keys: ${sink.hits.size}`);

  const jobs = await db().$queryRaw<{ task_identifier: string; attempts: number; last_error: string | null; run_at: Date; locked_by: string | null }[]>`
    SELECT task_identifier, key, attempts, last_error, run_at, locked_by FROM graphile_worker.jobs WHERE key IS NOT NULL ORDER BY attempts DESC LIMIT 5`;
  if (jobs.length > 0) console.log(`jobs left: ${JSON.stringify(jobs).slice(0, 3_000)}`);
  expect(executions).toHaveLength(total);
  expect(executions.filter((execution) => !['succeeded', 'failed'].includes(execution.status))).toEqual([]);
  // The only failures allowed are calls cut off by a kill.
  for (const execution of executions.filter((candidate) => candidate.status === 'failed')) {
    expect(execution.error).toMatchObject({ code: 'step_effect_uncertain' });
  }
  expect([...sink.hits.values()].filter((hits) => hits > 1)).toEqual([]);
  for (const execution of executions.filter((candidate) => candidate.status === 'succeeded')) expect(sink.hits.get(execution.id)).toBe(1);
  expect(statuses.get('succeeded') ?? 0).toBeGreaterThan(total / 2);
}, 240_000);
