/**
 * Issue 18: a member's expression is hostile input. Through the engine's real step path (a real
 * graphile-worker with the advance task, server/engine/expressions/sandbox with real threads), a
 * runaway expression fails its step `expression_error` naming the parameter path, in live runs, test
 * runs, evaluation runs and replays alike, while the runner keeps running everyone else's runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../core/db';
import { closeExpressionSandbox, expressionSandboxStats } from '.';
import { overrideExpressionSandboxForTests } from './pool';
import type { GraphInput } from '../../contract/graph';
import { replayExecution } from '../../run/replay';
import { startExecution } from '../../run/start';
import { createMember, type TestMember } from '../../../testing/factories';
import { useTestDatabase } from '../../../testing/test-database';
import { createWorkflow } from '../../../testing/workflow-factories';
import { startEngineWorker, waitForExecution, type EngineWorker } from '../../../../runner/engine/testing/engine-worker';

const databaseUrl = await useTestDatabase();
let worker: EngineWorker;
let hostile: TestMember;
let bystander: TestMember;

beforeAll(async () => {
  worker = await startEngineWorker(databaseUrl);
  hostile = await createMember();
  bystander = await createMember();
});
afterAll(async () => {
  await worker?.stop();
  overrideExpressionSandboxForTests({});
  await closeExpressionSandbox();
});

/** The expression: 22 doublings with `&`, then `$length` walks the result (4.3 s and 1 GB in process). */
const doubling = "{{ ($f := function($s,$n){ $n = 0 ? $s : $f($s & $s, $n - 1) }; $length($f('abcdefgh', 22))) }}";
/** One O(n²) built-in: a single JSONata step of seconds that its own time guardrail never sees. */
const runaway = '{{ $count($distinct([1..100000])) }}';

/** webhook → data.set whose second field holds `value`. */
function setGraph(value: string): GraphInput {
  return {
    nodes: [
      { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {}, position: { x: 0, y: 0 } },
      {
        id: 'set',
        type: 'data.set',
        version: 1,
        name: 'Set',
        params: { fields: [{ name: 'subject', value: '{{ trigger.subject }}' }, { name: 'computed', value }], keepInput: false },
        position: { x: 200, y: 0 },
      },
    ],
    connections: [{ from: 'start', output: 'main', to: 'set' }],
  };
}

async function start(member: TestMember, value: string, options: { simulated?: boolean; evaluation?: boolean } = {}) {
  const { workflow, version } = await createWorkflow(member, { graph: setGraph(value) });
  // An evaluation run's cases are simulated runs carrying its id (server/domains/eval-runs/drive.ts).
  const evalRun = options.evaluation
    ? await db().evalRun.create({ data: { memberId: member.id, workflowId: workflow.id, versionId: version!.id, baseline: 'none', source: {}, status: 'running' } })
    : null;
  const execution = await startExecution({
    memberId: member.id,
    workflowId: workflow.id,
    workflowVersionId: version!.id,
    simulated: options.simulated || options.evaluation,
    evalRunId: evalRun?.id,
    trigger: { type: 'webhook', nodeId: 'start', data: { subject: 'Invoice 42', n: 21 } },
  });
  return execution.id;
}

const failedOnExpression = (reason: RegExp) => ({
  status: 'failed',
  error: {
    code: 'expression_error',
    kind: 'permanent',
    nodeId: 'set',
    details: { path: 'params.fields[1].value' },
    message: expect.stringMatching(new RegExp(`^Expression in params\\.fields\\[1\\]\\.value: ${reason.source}`)),
  },
});

describe('expressions on the engine’s step path', () => {
  it('A runaway `&` doubling fails the step expression_error naming the parameter path: live runs, test runs, evaluation runs and replays alike', async () => {
    const live = await waitForExecution(await start(hostile, doubling));
    expect(live).toMatchObject(failedOnExpression(/A string would be longer than 1,000,000 characters/));
    expect(live.steps.find((step) => step.nodeId === 'set')).toMatchObject({ status: 'failed' });

    const testRun = await waitForExecution(await start(hostile, doubling, { simulated: true }));
    expect(testRun).toMatchObject(failedOnExpression(/A string would be longer than 1,000,000 characters/));

    const evaluation = await waitForExecution(await start(hostile, doubling, { evaluation: true }));
    expect(evaluation).toMatchObject(failedOnExpression(/A string would be longer than 1,000,000 characters/));

    const replay = await replayExecution(hostile.id, live.id, { from: 'failed_step', version: 'original' });
    expect(await waitForExecution(replay.executionId)).toMatchObject(failedOnExpression(/A string would be longer than 1,000,000 characters/));
  }, 120_000);

  it('A built-in running past the hard limit has its thread stopped: the step fails expression_error naming the path', async () => {
    const run = await waitForExecution(await start(hostile, runaway), { timeoutMs: 60_000 });
    expect(run).toMatchObject(failedOnExpression(/it ran longer than 750 ms and was stopped\./));
  }, 120_000);

  it("While one member's expression holds a sandbox thread, the runner's event loop keeps turning and another member's run completes", async () => {
    // A limit far above the bystander's whole run, so the order below is the sandbox's doing, not a race.
    overrideExpressionSandboxForTests({ hardLimitMs: 20_000 });
    await closeExpressionSandbox();
    try {
      const stuck = await start(hostile, runaway);
      for (const deadline = Date.now() + 60_000; expressionSandboxStats().running === 0; ) {
        if (Date.now() > deadline) throw new Error('the runaway expression never reached a sandbox thread');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // A call, so the bystander's step needs a thread too (plain field paths are resolved inline).
      const other = await waitForExecution(await start(bystander, '{{ $sum([trigger.n, trigger.n]) }}'), { timeoutMs: 60_000 });
      expect(other).toMatchObject({ status: 'succeeded' });
      expect(other.steps.find((step) => step.nodeId === 'set')).toMatchObject({ status: 'succeeded', data: { subject: 'Invoice 42', computed: 42 } });
      // The runaway was still on its thread the whole time.
      expect(expressionSandboxStats().running).toBeGreaterThanOrEqual(1);
      expect(await db().execution.findUniqueOrThrow({ where: { id: stuck }, select: { status: true } })).toEqual({ status: 'running' });
      await waitForExecution(stuck, { timeoutMs: 60_000 });
    } finally {
      overrideExpressionSandboxForTests({});
      await closeExpressionSandbox();
    }
  }, 150_000);
});
