/**
 * A freed slot of the instance goes to a run of another workflow that waited for the instance's cap (spec, Limits:
 * "all workflows together are capped ... Excess runs wait in `queued`"), and the admission of a workflow whose own
 * slots are full looks for one only when such a run waits (admission.ts, awaitedElsewhere): it no longer walks its
 * own backlog to find none. Shown with the cap set to 2 for this file's process and no runner: the admission's
 * wake-ups are read from the rows and the jobs.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../core/config';
import { db } from '../../core/db';
import { createMember } from '../../testing/factories';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import { kickQueued } from './admission';
import { startExecution } from './start';

process.env.INSTANCE_MAX_CONCURRENCY = '2';
resetConfigForTests();
await useTestDatabase();
afterAll(() => {
  delete process.env.INSTANCE_MAX_CONCURRENCY;
  resetConfigForTests();
});

async function workflowOfSlots(slots: number | null) {
  const member = await createMember();
  const { workflow, version } = await createWorkflow(member);
  await db().workflow.update({ where: { id: workflow.id }, data: { maxConcurrency: slots } });
  const start = async (state: 'running' | 'waiting for a slot') => {
    const { id } = await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'webhook', nodeId: 'start', data: {} } });
    await db().execution.update({ where: { id }, data: state === 'running' ? { status: 'running', startedAt: new Date() } : { awaitsSlot: true } });
    return id;
  };
  return { id: workflow.id, start };
}

const wakeOf = async (id: string) => {
  const run = await db().execution.findUniqueOrThrow({ where: { id } });
  const [job] = await db().$queryRaw<{ locked: boolean }[]>`SELECT locked_at IS NOT NULL AS locked FROM graphile_worker.jobs WHERE key = ${`execution:${id}`}`;
  return { status: run.status, wakeSeq: run.wakeSeq, job: job !== undefined };
};

describe('a slot of the instance freed while a workflow is full', () => {
  it("wakes the oldest run of another workflow that waited for the instance's cap, and none of the full workflow's", async () => {
    const full = await workflowOfSlots(1);
    const other = await workflowOfSlots(null);
    const ended = await workflowOfSlots(null);
    await full.start('running');
    const endedRun = await ended.start('running');
    const heldByCap = await other.start('waiting for a slot');
    const backlog = [await full.start('waiting for a slot'), await full.start('waiting for a slot')];
    // The jobs the starts gave are taken (their advances found no slot): only a wake-up adds one again.
    await db().$executeRaw`DELETE FROM graphile_worker._private_jobs`;
    const before = await wakeOf(heldByCap);

    await db().execution.update({ where: { id: endedRun }, data: { status: 'succeeded', finishedAt: new Date() } });
    await kickQueued(ended.id);

    expect(await wakeOf(heldByCap)).toEqual({ status: 'queued', wakeSeq: before.wakeSeq + 1, job: true });
    for (const id of backlog) expect((await wakeOf(id)).job).toBe(false);
  });

  it('with no run of another workflow waiting, an admission of the full workflow wakes nothing', async () => {
    const full = await workflowOfSlots(1);
    await full.start('running');
    const backlog = [await full.start('waiting for a slot'), await full.start('waiting for a slot')];
    await db().$executeRaw`DELETE FROM graphile_worker._private_jobs`;
    const before = await Promise.all(backlog.map(wakeOf));

    await kickQueued(full.id);

    expect(await Promise.all(backlog.map(wakeOf))).toEqual(before);
  });
});
