/**
 * A queued run whose advance found no slot is let go; if another admission takes it in before that advance gives
 * its lease back, it gets no job (its lease was held, admission.ts), so the advance itself must look again when its
 * release sees the run woken. It once returned without looking, which left the run `running` with no lease and no
 * job for ever (seen in scripts/start.int.test.ts after a runner's restart). Made deterministic here: a trigger
 * does the other admission inside the advance's own admission transaction, right after it let the run go.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createMember } from '../../testing/factories';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import { advanceExecution } from './advance';
import { startExecution } from './start';

await useTestDatabase();

const graph = {
  nodes: [
    { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} },
    { id: 'tag', type: 'data.set', version: 1, name: 'Tag', params: { fields: [{ name: 'tagged', value: true }] } },
  ],
  connections: [{ from: 'start', output: 'main', to: 'tag' }],
};

afterEach(async () => {
  await db().$executeRawUnsafe(`DROP TRIGGER IF EXISTS admit_elsewhere ON executions`);
  await db().$executeRawUnsafe(`DROP FUNCTION IF EXISTS admit_elsewhere()`);
});

describe('a run admitted by another advance while its own still held the lease', () => {
  it('is driven to its end by its own advance, not left running without a job', async () => {
    const member = await createMember();
    const { workflow, version } = await createWorkflow(member, { graph });
    await db().workflow.update({ where: { id: workflow.id }, data: { maxConcurrency: 1 } });
    const start = () => startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'webhook', nodeId: 'start', data: {} } });
    // The workflow's one slot, held by a run another runner is advancing.
    const holder = await start();
    await db().execution.update({ where: { id: holder.id }, data: { status: 'running', leaseOwner: 'elsewhere', leaseUntil: new Date(Date.now() + 60_000) } });
    const queued = await start();
    expect((await db().execution.findUniqueOrThrow({ where: { id: queued.id } })).status).toBe('queued');

    // When the advance lets the run go for want of a slot, the holder ends and the other runner's admission takes
    // the queued run in: running, woken, no job (the advance holds its lease).
    await db().$executeRawUnsafe(`
      CREATE FUNCTION admit_elsewhere() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE executions SET status = 'succeeded', finished_at = now(), lease_owner = NULL, lease_until = NULL WHERE id = '${holder.id}'::uuid;
        UPDATE executions SET status = 'running', started_at = now(), wake_seq = wake_seq + 1, awaits_slot = false WHERE id = NEW.id;
        RETURN NULL;
      END $$`);
    await db().$executeRawUnsafe(`
      CREATE TRIGGER admit_elsewhere AFTER UPDATE OF awaits_slot ON executions
      FOR EACH ROW WHEN (NEW.id = '${queued.id}'::uuid AND NEW.awaits_slot AND NEW.status = 'queued') EXECUTE FUNCTION admit_elsewhere()`);

    await advanceExecution(queued.id, 'runner-test');

    const run = await db().execution.findUniqueOrThrow({ where: { id: queued.id }, include: { steps: true } });
    expect(run.status).toBe('succeeded');
    expect(run.steps.map((step) => `${step.nodeId}:${step.status}`).sort()).toEqual(['start:succeeded', 'tag:succeeded']);
    expect(run.leaseOwner).toBeNull();
  });
});
