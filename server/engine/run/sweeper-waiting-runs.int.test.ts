/**
 * Runs waiting for a slot and the sweeper (sweeper.ts): such a run has no job by design (the end that frees a slot
 * admits it, admission.ts), so the sweep gives it none; the net for an admission that never came is one admission per
 * workflow with runs waiting. The sweep used to give every waiting run older than 10 s a job of its own every 3 s (up
 * to 500), each taking the instance-wide admission lock to find no slot while a backlog drained (issue 25 §1). A
 * queued run that lost its job before its own admission (not waiting) is still given one.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createMember } from '../../testing/factories';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import { startExecution } from './start';
import { sweepExecutions } from './sweeper';

await useTestDatabase();

// Each test's backlog alone: an admission also wakes the oldest waiting run of another workflow (admission.ts).
beforeEach(async () => {
  await db().$executeRaw`UPDATE executions SET status = 'cancelled', finished_at = now() WHERE status IN ('queued', 'running')`;
});

/** A workflow of one slot, its holder leased by a live runner, and `waiting` runs that found no slot a minute ago. */
async function backlog(waiting: number) {
  const member = await createMember();
  const { workflow, version } = await createWorkflow(member);
  await db().workflow.update({ where: { id: workflow.id }, data: { maxConcurrency: 1 } });
  const start = async () =>
    (await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'webhook', nodeId: 'start', data: {} } })).id;
  const holder = await start();
  await db().execution.update({ where: { id: holder }, data: { status: 'running', startedAt: new Date(), leaseOwner: 'alive', leaseUntil: new Date(Date.now() + 60_000) } });
  const runs: string[] = [];
  for (let index = 0; index < waiting; index += 1) runs.push(await start());
  await db().$executeRaw`UPDATE executions SET awaits_slot = true, created_at = now() - interval '1 minute' WHERE id = ANY(${runs}::uuid[])`;
  // Their advances found no slot and their jobs completed.
  await db().$executeRaw`DELETE FROM graphile_worker._private_jobs`;
  return { holder, runs };
}

const jobOf = async (id: string) => (await db().$queryRaw<unknown[]>`SELECT 1 FROM graphile_worker.jobs WHERE key = ${`execution:${id}`}`).length > 0;
const statusOf = async (id: string) => (await db().execution.findUniqueOrThrow({ where: { id } })).status;

describe('the sweep and the runs waiting for a slot', () => {
  it('gives a waiting run no job of its own while its workflow is full', async () => {
    const { runs } = await backlog(3);
    await sweepExecutions();
    for (const id of runs) {
      expect(await jobOf(id)).toBe(false);
      expect(await statusOf(id)).toBe('queued');
    }
  });

  it('admits the oldest waiting run when a slot freed and no admission came, and only that one', async () => {
    const { holder, runs } = await backlog(3);
    // The holder ended on a runner that died before the admission after it.
    await db().execution.update({ where: { id: holder }, data: { status: 'succeeded', finishedAt: new Date(), leaseOwner: null, leaseUntil: null } });
    await sweepExecutions();
    expect(await statusOf(runs[0]!)).toBe('running');
    expect(await jobOf(runs[0]!)).toBe(true);
    for (const id of runs.slice(1)) {
      expect(await statusOf(id)).toBe('queued');
      expect(await jobOf(id)).toBe(false);
    }
  });

  it('still gives a job to a queued run that lost its own before its admission', async () => {
    const { runs } = await backlog(1);
    await db().execution.update({ where: { id: runs[0]! }, data: { awaitsSlot: false } });
    await sweepExecutions();
    expect(await jobOf(runs[0]!)).toBe(true);
  });
});
