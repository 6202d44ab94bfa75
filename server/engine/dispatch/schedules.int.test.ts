import { describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createMember } from '../../testing/factories';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import type { GraphInput } from '../contract/graph';
import { startDueSchedules } from './schedules';

await useTestDatabase();

const scheduleGraph = (cron = '*/5 * * * *', timeZone = 'UTC'): GraphInput => ({
  nodes: [{ id: 'clock', type: 'trigger.schedule', version: 1, name: 'Clock', params: { cron, timeZone }, position: { x: 0, y: 0 } }],
  connections: [],
});

async function scheduled(options: { paused?: boolean; cron?: string; timeZone?: string; nextRunAt: Date }) {
  const member = await createMember();
  const { workflow, version } = await createWorkflow(member, { graph: scheduleGraph(options.cron, options.timeZone), paused: options.paused });
  await db().workflowSchedule.create({
    data: { workflowId: workflow.id, versionId: version!.id, cron: options.cron ?? '*/5 * * * *', timeZone: options.timeZone ?? 'UTC', nextRunAt: options.nextRunAt },
  });
  return { member, workflow, version: version! };
}

const runsOf = (workflowId: string) => db().execution.findMany({ where: { workflowId } });
const scheduleOf = (workflowId: string) => db().workflowSchedule.findUniqueOrThrow({ where: { workflowId } });

describe('schedule triggers', () => {
  it('starts a due schedule once with {firedAt} and moves it to the next time in its time zone', async () => {
    const now = new Date('2026-01-10T12:02:30Z');
    const due = new Date('2026-01-10T12:00:00Z');
    const { member, workflow, version } = await scheduled({ nextRunAt: due, cron: '0 9 * * *', timeZone: 'Europe/Paris' });
    const notYet = await scheduled({ nextRunAt: new Date('2026-01-10T12:05:00Z') });
    expect(await startDueSchedules(() => now)).toBeGreaterThanOrEqual(1);
    const runs = await runsOf(workflow.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      memberId: member.id,
      workflowVersionId: version.id,
      triggerType: 'schedule',
      triggerNodeId: 'clock',
      triggerData: { firedAt: due.toISOString() },
      status: 'queued',
      holdsSlot: true,
    });
    // 09:00 in Paris is 08:00 UTC in January.
    expect((await scheduleOf(workflow.id)).nextRunAt.toISOString()).toBe('2026-01-11T08:00:00.000Z');
    expect(await runsOf(notYet.workflow.id)).toHaveLength(0);
    // A second pass at the same time starts nothing more.
    await startDueSchedules(() => now);
    expect(await runsOf(workflow.id)).toHaveLength(1);
  });

  it('missed occurrences start one run, not one per occurrence', async () => {
    const now = new Date('2026-02-01T10:00:30Z');
    const { workflow } = await scheduled({ nextRunAt: new Date('2026-02-01T08:00:00Z'), cron: '*/5 * * * *' });
    await startDueSchedules(() => now);
    expect(await runsOf(workflow.id)).toHaveLength(1);
    expect((await scheduleOf(workflow.id)).nextRunAt.toISOString()).toBe('2026-02-01T10:05:00.000Z');
  });

  it('starts nothing for a paused, archived or republished workflow, and still moves on', async () => {
    const now = new Date('2026-03-01T10:00:30Z');
    const paused = await scheduled({ paused: true, nextRunAt: new Date('2026-03-01T10:00:00Z') });
    const archived = await scheduled({ nextRunAt: new Date('2026-03-01T10:00:00Z') });
    await db().workflow.update({ where: { id: archived.workflow.id }, data: { archivedAt: new Date() } });
    const unpublished = await scheduled({ nextRunAt: new Date('2026-03-01T10:00:00Z') });
    await db().workflow.update({ where: { id: unpublished.workflow.id }, data: { publishedVersionId: null } });
    await startDueSchedules(() => now);
    for (const { workflow } of [paused, archived, unpublished]) {
      expect(await runsOf(workflow.id)).toHaveLength(0);
      expect((await scheduleOf(workflow.id)).nextRunAt.toISOString()).toBe('2026-03-01T10:05:00.000Z');
    }
  });

  it('two runners passing at once start each occurrence once', async () => {
    const now = new Date('2026-04-01T10:00:30Z');
    const workflows = [];
    for (let index = 0; index < 6; index += 1) workflows.push((await scheduled({ nextRunAt: new Date('2026-04-01T10:00:00Z') })).workflow);
    await Promise.all([startDueSchedules(() => now), startDueSchedules(() => now), startDueSchedules(() => now)]);
    for (const workflow of workflows) expect(await runsOf(workflow.id)).toHaveLength(1);
  });
});
