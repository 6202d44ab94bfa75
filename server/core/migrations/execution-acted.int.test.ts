/**
 * The backfills of issue 19 §3 on rows stored before them, as `migrate deploy` runs them:
 * - 20261202061425_execution_acted: finished runs get `acted` as the runner now records it at the
 *   finish (own effects, not steps kept by a replay, or a called run's at any depth); runs in progress stay null;
 * - 20261202060715_incident_resolution: an incident whose run already had a successful replay is resolved by it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { db } from '../db';
import { createExecution, createIncident, createStep } from '../../testing/execution-factories';
import { createMember } from '../../testing/factories';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import { defaultMigrationsDir } from './migration-files';

await useTestDatabase();

/** The data statements of a migration, from the comment that starts them up to `until` (or the end). */
function dataStatements(name: string, from: string, until?: string): string[] {
  const migration = readFileSync(path.join(defaultMigrationsDir(), name, 'migration.sql'), 'utf8');
  const start = migration.indexOf(from);
  const end = until ? migration.indexOf(until) : migration.length;
  return migration
    .slice(start, end)
    .split(/;\s*\n/)
    .map((statement) => statement.replace(/^--.*$/gm, '').trim())
    .filter((statement) => statement.length > 0);
}

const effect = { kind: 'mail', description: 'Moved the message to Archive' };

describe('migration execution_acted: finished runs stored before it', () => {
  it('sets acted from the runs’ own effects, the runs they called, and not from steps a replay kept; runs in progress stay null', async () => {
    const member = await createMember();
    const { workflow, version } = await createWorkflow(member);
    const run = (options: Partial<Parameters<typeof createExecution>[1]> = {}) => createExecution(member, { workflowId: workflow.id, workflowVersionId: version!.id, status: 'succeeded', ...options });

    const acting = await run();
    await createStep(acting.id, { nodeId: 'archive', effects: [effect] });
    const nowhere = await run();
    await createStep(nowhere.id, { nodeId: 'check' });
    await createStep(nowhere.id, { nodeId: 'archive', status: 'skipped' });
    const caller = await run({ status: 'failed' });
    const child = await run({ parentExecutionId: caller.id });
    const grandchild = await run({ parentExecutionId: child.id });
    await createStep(grandchild.id, { nodeId: 'archive', effects: [effect] });
    const replay = await run({ retryOfExecutionId: acting.id });
    const kept = await createStep(replay.id, { nodeId: 'archive', effects: [effect] });
    await db().executionStep.update({ where: { id: kept.id }, data: { copiedFrom: 'original-step' } });
    const running = await run({ status: 'running' });
    await createStep(running.id, { nodeId: 'archive', effects: [effect] });

    for (const statement of dataStatements('20261202061425_execution_acted', '-- Backfill', '-- CreateIndex')) await db().$executeRawUnsafe(statement);

    const acted = async (id: string) => (await db().execution.findUniqueOrThrow({ where: { id } })).acted;
    expect(await acted(acting.id)).toBe(true);
    expect(await acted(nowhere.id)).toBe(false);
    expect(await acted(grandchild.id)).toBe(true);
    expect(await acted(child.id)).toBe(true);
    expect(await acted(caller.id)).toBe(true);
    expect(await acted(replay.id)).toBe(false);
    expect(await acted(running.id)).toBeNull();
  });
});

describe('migration incident_resolution: incidents stored before it', () => {
  it('resolves an incident whose run already had a successful replay, naming the first one; others stay open', async () => {
    const member = await createMember();
    const { workflow, version } = await createWorkflow(member);
    const run = (options: Partial<Parameters<typeof createExecution>[1]> = {}) => createExecution(member, { workflowId: workflow.id, workflowVersionId: version!.id, ...options });
    const failed = await run({ status: 'failed' });
    const incident = await createIncident(member, failed);
    await run({ status: 'failed', retryOfExecutionId: failed.id });
    const success = await run({ status: 'succeeded', retryOfExecutionId: failed.id, createdAt: new Date(Date.now() - 60_000) });
    await run({ status: 'succeeded', retryOfExecutionId: failed.id });
    const unreplayed = await run({ status: 'failed' });
    const open = await createIncident(member, unreplayed);

    for (const statement of dataStatements('20261202060715_incident_resolution', '-- Backfill')) await db().$executeRawUnsafe(statement);

    const resolved = await db().incident.findUniqueOrThrow({ where: { id: incident.id } });
    expect(resolved.resolvedByExecutionId).toBe(success.id);
    expect(resolved.resolvedAt).toEqual(success.finishedAt);
    expect(resolved.acknowledgedAt).toEqual(success.finishedAt);
    expect(await db().incident.findUniqueOrThrow({ where: { id: open.id } })).toMatchObject({ resolvedAt: null, resolvedByExecutionId: null, acknowledgedAt: null });
  });
});
