/**
 * A webhook's run that arrives behind runs of its workflow waiting for a slot starts waiting too, with no job of its
 * own (start.ts, startExecutionAlone): its job would only have taken the admission lock to find no slot (issue 25
 * §1: in a burst at the default 10 slots every run had two jobs, two claims and two admissions). Whoever frees a slot
 * admits it in arrival order; and a slot freed before its start committed is found by its own look after the commit.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createMember } from '../../testing/factories';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import { kickQueued } from './admission';
import { startExecutionAlone } from './start';

await useTestDatabase();

beforeEach(async () => {
  await db().$executeRaw`UPDATE executions SET status = 'cancelled', finished_at = now() WHERE status IN ('queued', 'running')`;
  await db().$executeRaw`DELETE FROM graphile_worker._private_jobs`;
});

async function oneSlotWorkflow() {
  const member = await createMember();
  const { workflow, version } = await createWorkflow(member);
  await db().workflow.update({ where: { id: workflow.id }, data: { maxConcurrency: 1 } });
  const start = async () =>
    (await startExecutionAlone({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'webhook', nodeId: 'start', data: {} }, timeoutMs: 60_000, serialKey: null })).id;
  return { workflowId: workflow.id, start };
}

const stateOf = async (id: string) => {
  const run = await db().execution.findUniqueOrThrow({ where: { id } });
  const jobs = await db().$queryRaw<unknown[]>`SELECT 1 FROM graphile_worker.jobs WHERE key = ${`execution:${id}`}`;
  return { status: run.status, awaitsSlot: run.awaitsSlot, job: jobs.length > 0 };
};

/** The workflow's one slot held by a leased run, and one run whose advance found no slot (its job done). */
async function fullWithOneWaiting() {
  const flow = await oneSlotWorkflow();
  const holder = await flow.start();
  await db().execution.update({ where: { id: holder }, data: { status: 'running', startedAt: new Date(), leaseOwner: 'alive', leaseUntil: new Date(Date.now() + 60_000) } });
  const waiting = await flow.start();
  await db().execution.update({ where: { id: waiting }, data: { awaitsSlot: true } });
  await db().$executeRaw`DELETE FROM graphile_worker._private_jobs`;
  return { ...flow, holder, waiting };
}

describe('a webhook run started behind runs waiting for a slot', () => {
  it('starts queued and waiting, without a job', async () => {
    const { start } = await fullWithOneWaiting();
    expect(await stateOf(await start())).toEqual({ status: 'queued', awaitsSlot: true, job: false });
  });

  it('with no run waiting, starts with its job as before', async () => {
    const { start } = await oneSlotWorkflow();
    expect(await stateOf(await start())).toEqual({ status: 'queued', awaitsSlot: false, job: true });
  });

  it('is admitted in arrival order by the ends that free slots', async () => {
    const { start, holder, waiting, workflowId } = await fullWithOneWaiting();
    const arrival = await start();
    await db().execution.update({ where: { id: holder }, data: { status: 'succeeded', finishedAt: new Date(), leaseOwner: null, leaseUntil: null } });
    await kickQueued(workflowId);
    expect(await stateOf(waiting)).toEqual({ status: 'running', awaitsSlot: false, job: true });
    expect(await stateOf(arrival)).toEqual({ status: 'queued', awaitsSlot: true, job: false });

    await db().execution.update({ where: { id: waiting }, data: { status: 'succeeded', finishedAt: new Date() } });
    await kickQueued(workflowId);
    expect(await stateOf(arrival)).toEqual({ status: 'running', awaitsSlot: false, job: true });
  });

  it('finds a slot freed before its start committed, whose end asked before the run showed', async () => {
    const { start, holder, waiting } = await fullWithOneWaiting();
    // The slot is free, and a run waits although it is: the end that freed it asked whether anyone waited before
    // that run's wait showed, and the run's own look is still to come. The arrival starts behind it, waiting.
    await db().execution.update({ where: { id: waiting }, data: { status: 'cancelled', finishedAt: new Date() } });
    await db().execution.update({ where: { id: holder }, data: { status: 'succeeded', finishedAt: new Date(), leaseOwner: null, leaseUntil: null } });
    const straggler = await start();
    expect(await stateOf(straggler)).toEqual({ status: 'queued', awaitsSlot: false, job: true });
    await db().execution.update({ where: { id: straggler }, data: { awaitsSlot: true } });
    await db().$executeRaw`DELETE FROM graphile_worker._private_jobs`;

    const arrival = await start();
    // The straggler, ahead in arrival order, takes the one slot and its job; the arrival waits for the next.
    expect(await stateOf(straggler)).toEqual({ status: 'running', awaitsSlot: false, job: true });
    expect(await stateOf(arrival)).toEqual({ status: 'queued', awaitsSlot: true, job: false });
  });
});
