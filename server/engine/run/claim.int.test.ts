/**
 * The claim (lease.ts `claimExecution`) says whether the run had any step row: an advance reads the steps only then
 * (advance.ts), so a run's first advance, and a run admitted by another run's end before anything advanced it, cost
 * one round trip fewer. A run with steps (an advancer that died after writing some, a replay) must still be read.
 */
import { expect, it } from 'vitest';
import { db } from '../../core/db';
import { claimExecution } from './lease';
import { startExecution } from './start';
import { createMember } from '../../testing/factories';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import { leftRunning } from '../../../runner/engine/testing/left-running';

await useTestDatabase();

it('a run is claimed with hasSteps false until a step row exists, true once one does, whoever left it', async () => {
  const member = await createMember();
  const { workflow, version } = await createWorkflow(member);
  const fresh = await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'webhook', nodeId: 'start', data: {} } });
  expect((await claimExecution(fresh.id, 'runner-a'))?.hasSteps).toBe(false);

  // Admitted by another run's end (running, started) but never advanced: still nothing to read.
  const admitted = await leftRunning({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, lease: null });
  await db().executionStep.deleteMany({ where: { executionId: admitted.id } });
  const claimedAdmitted = await claimExecution(admitted.id, 'runner-a');
  expect(claimedAdmitted?.startedAt).not.toBeNull();
  expect(claimedAdmitted?.hasSteps).toBe(false);

  // A dead runner's run with its trigger step written: taken over, and its steps are there to read.
  const left = await leftRunning({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id });
  const claimedLeft = await claimExecution(left.id, 'runner-b');
  expect(claimedLeft?.leaseTakeovers).toBe(1);
  expect(claimedLeft?.hasSteps).toBe(true);
});
