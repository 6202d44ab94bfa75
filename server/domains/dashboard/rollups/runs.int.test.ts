/**
 * The rollup `dashboard_run_hours` agrees with the raw executions rows: for several windows (24h, 7d, 30d, custom
 * ones with odd edges), zones (UTC, Europe/Paris over the 2026-03-29 change, Asia/Kolkata's :30 and
 * Asia/Kathmandu's :45 midnights) and audiences, the route's figures (rollup + raw) equal the figures of the raw
 * statements (`executionFiguresRawSql`), after every way a run is written: Prisma, the replay and cancel routes,
 * raw SQL, a rolled-back transaction, deletions; and the reconcile task repairs a corrupted or wiped rollup.
 */
import { readFile } from 'node:fs/promises';
import type { JobHelpers } from 'graphile-worker';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { cronItems } from '../../../../runner/crontab';
import { dashboardFoldTask, dashboardReconcileTask } from '../../../../runner/tasks/dashboard-reconcile.task';
import { db } from '../../../core/db';
import { createExecution } from '../../../testing/execution-factories';
import { createMember, type TestMember } from '../../../testing/factories';
import { createMailbox } from '../../../testing/mail-factories';
import { call } from '../../../testing/rest-client';
import { useTestDatabase } from '../../../testing/test-database';
import { createWorkflow } from '../../../testing/workflow-factories';
import type { DashboardAudience } from '../audience';
import { executionFiguresOf } from '../executions';
import { foldRunRollupIncrements } from '../repo-rollups';
import { executionFiguresRawSql } from '../executions-sql';
import { dashboardQueryInput } from '../query';
import { resolveWindow } from '../window';
import { reconcileDashboardRollups } from './reconcile';

const databaseUrl = await useTestDatabase();

type Status = 'queued' | 'running' | 'waiting' | 'succeeded' | 'failed' | 'cancelled';
interface Flow {
  id: string;
  versionId: string;
  owner: TestMember;
  mailboxId: string;
}

let admin: TestMember;
let member: TestMember;
let flows: Flow[];
/** A workflow whose runs are never counted: test runs, evaluation runs, loop iterations. */
let uncounted: Flow;

const hour = 3_600_000;
const day = 24 * hour;
/** Instants that cut hours where the zones' buckets do: whole hours, :15, :30, :45 and the hours' last instant. */
const minuteMarks = [0, 0, 14, 15, 29, 30, 31, 44, 45, 59];
const statuses: Status[] = ['succeeded', 'succeeded', 'succeeded', 'failed', 'failed', 'cancelled', 'waiting', 'running', 'queued'];

/** A small deterministic generator (the same facts on every run). */
function generator(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % below;
  };
}

/** Runs spread over `[start, start + days)`, every status, on the flows in turn (a third with no mailbox). */
function runsOver(start: number, days: number, count: number, seed: number) {
  const next = generator(seed);
  return Array.from({ length: count }, (_, index) => {
    const flow = flows[index % flows.length]!;
    const at = Math.floor(start / hour) * hour + next(days * 24) * hour + minuteMarks[next(minuteMarks.length)]! * 60_000 + next(60) * 1_000 + next(1_000);
    const status = statuses[next(statuses.length)]!;
    const createdAt = new Date(at);
    return {
      memberId: flow.owner.id,
      workflowId: flow.id,
      workflowVersionId: flow.versionId,
      status,
      mailboxId: index % 3 === 0 ? null : flow.mailboxId,
      triggerType: 'webhook',
      triggerNodeId: 'start',
      timeoutMs: 3_600_000,
      createdAt,
      startedAt: status === 'queued' ? null : createdAt,
      finishedAt: ['succeeded', 'failed', 'cancelled'].includes(status) ? new Date(at + 1_000 + next(60_000)) : null,
    };
  });
}

const zones = ['UTC', 'Europe/Paris', 'Asia/Kolkata', 'Asia/Kathmandu'];
const periods: Record<string, string>[] = [
  { period: '24h' },
  { period: '7d' },
  { period: '30d' },
  // Paris's local days over the spring change (a 23-hour day).
  { period: 'custom', from: '2026-03-26T23:00:00Z', to: '2026-03-31T22:00:00Z' },
  // 48 hours: hour buckets, edges inside hours.
  { period: 'custom', from: '2026-03-28T06:20:00.123Z', to: '2026-03-30T06:20:00.123Z' },
  // Ten days with edges at a :45 and a :10.
  { period: 'custom', from: '2026-03-22T07:45:30Z', to: '2026-04-01T13:10:00Z' },
];

function audiences(): [string, DashboardAudience][] {
  return [
    ['org', { memberId: null, mailboxId: null, workflowId: null, isAdmin: true }],
    ['member', { memberId: member.id, mailboxId: null, workflowId: null, isAdmin: false }],
    ['workflow', { memberId: null, mailboxId: null, workflowId: flows[1]!.id, isAdmin: true }],
    ['mailbox', { memberId: admin.id, mailboxId: flows[0]!.mailboxId, workflowId: null, isAdmin: true }],
  ];
}

/** Compares the route's figures with the raw statements' for every window, zone and audience; returns how many runs they saw. */
async function expectAgreement(): Promise<number> {
  const now = new Date();
  let seen = 0;
  for (const tz of zones) {
    for (const period of periods) {
      const window = await resolveWindow(db(), dashboardQueryInput.parse({ ...period, tz }), now);
      for (const [name, audience] of audiences()) {
        const [rolled, raw] = await Promise.all([executionFiguresOf(window, audience), executionFiguresOf(window, audience, executionFiguresRawSql)]);
        expect(rolled, `${name} ${JSON.stringify(period)} ${tz}`).toEqual(raw);
        seen += raw.current.total + raw.previous.total;
      }
    }
  }
  return seen;
}

/** The rollup as rows, in key order, after the runner's minute fold moved the runs' pending increments into it. */
const rollup = async () => {
  await foldRunRollupIncrements();
  return db().$queryRawUnsafe<{ hour: Date; member_id: string; workflow_id: string; mailbox_id: string | null; status: string; runs: number; last_created_at: Date }[]>(
    'SELECT * FROM dashboard_run_hours ORDER BY hour, member_id, workflow_id, mailbox_id NULLS FIRST, status',
  );
};

async function flowOf(owner: TestMember, name: string): Promise<Flow> {
  const { workflow, version } = await createWorkflow(owner, { name });
  const mailbox = await createMailbox(owner, { folders: false });
  return { id: workflow.id, versionId: version!.id, owner, mailboxId: mailbox.id };
}

beforeAll(async () => {
  admin = await createMember({ role: 'admin', name: 'Admin' });
  member = await createMember({ name: 'Member' });
  flows = [await flowOf(admin, 'Invoices'), await flowOf(admin, 'Orders'), await flowOf(member, 'Support')];
  uncounted = await flowOf(member, 'Uncounted');
  const now = Date.now();
  // Around now (the presets' windows and their previous periods) and around the Paris spring change.
  await db().execution.createMany({ data: runsOver(now - 62 * day, 62, 500, 7) });
  await db().execution.createMany({ data: runsOver(Date.parse('2026-03-12T00:00:00Z'), 22, 400, 11) });
}, 60_000);

describe('dashboard_run_hours agrees with the raw executions rows', () => {
  it('gives the route the raw statements’ figures over every window, zone and audience, after runs written through Prisma', async () => {
    expect(await expectAgreement()).toBeGreaterThan(1_000);
    // Through the REST route itself, for a custom window (a fixed `now` cannot be given to it).
    const query = { period: 'custom', from: '2026-03-22T07:45:30Z', to: '2026-04-01T13:10:00Z', tz: 'Asia/Kathmandu', scope: 'org' };
    const response = await call('GET', `/api/v1/dashboard/executions?${new URLSearchParams(query).toString()}`, { cookie: admin.cookie });
    expect(response.status).toBe(200);
    const window = await resolveWindow(db(), dashboardQueryInput.parse(query));
    const raw = await executionFiguresOf(window, { memberId: null, mailboxId: null, workflowId: null, isAdmin: true }, executionFiguresRawSql);
    expect(raw.current.total).toBeGreaterThan(0);
    expect(response.body).toEqual(JSON.parse(JSON.stringify(raw)));
    const rows = await rollup();
    expect(rows.length).toBeGreaterThan(100);
    expect(rows.every((row) => ['succeeded', 'failed', 'cancelled'].includes(row.status))).toBe(true);
  }, 120_000);

  it('never rolls up test runs, evaluation runs or loop iterations, and rolls up every other ended run once', async () => {
    const at = new Date(Date.now() - 2 * hour);
    const base = { workflowId: uncounted.id, workflowVersionId: uncounted.versionId, createdAt: at };
    await createExecution(member, { ...base, status: 'succeeded', simulated: true });
    await createExecution(member, { ...base, status: 'failed', simulated: true, evalRunId: '00000000-0000-4000-8000-000000000001' });
    await createExecution(member, { ...base, status: 'failed', evalRunId: '00000000-0000-4000-8000-000000000002' });
    const parent = await createExecution(member, { workflowId: flows[2]!.id, workflowVersionId: flows[2]!.versionId, status: 'succeeded', createdAt: at });
    await createExecution(member, { ...base, status: 'succeeded', startedBy: 'loop_iteration', parentExecutionId: parent.id });
    await createExecution(member, { ...base, status: 'running', startedBy: 'loop_iteration', parentExecutionId: parent.id });
    const rows = await rollup();
    expect(rows.filter((row) => row.workflow_id === uncounted.id)).toEqual([]);
    const [counted] = await db().$queryRawUnsafe<{ runs: number }[]>(
      `SELECT count(*)::int AS runs FROM executions
        WHERE status IN ('succeeded', 'failed', 'cancelled') AND simulated = false AND eval_run_id IS NULL AND started_by IS DISTINCT FROM 'loop_iteration'`,
    );
    expect(rows.reduce((sum, row) => sum + row.runs, 0)).toBe(counted!.runs);
    await expectAgreement();
  }, 120_000);

  it('keeps nothing of a transaction rolled back after a status change (a crash mid-write)', async () => {
    const waiting = await createExecution(member, { workflowId: flows[2]!.id, workflowVersionId: flows[2]!.versionId, status: 'waiting', createdAt: new Date(Date.now() - 5 * hour) });
    const before = await rollup();
    await expect(
      db().$transaction(async (tx) => {
        await tx.execution.update({ where: { id: waiting.id }, data: { status: 'succeeded', finishedAt: new Date() } });
        await tx.$executeRawUnsafe(`UPDATE executions SET status = 'failed' WHERE status = 'succeeded' AND workflow_id = $1::uuid`, flows[0]!.id);
        // The triggers fire at commit (deferred, migration execution_rollups_at_commit); made to fire now, they show
        // their work is this transaction’s: the rollup and its pending increments moved with the writes…
        await tx.$executeRawUnsafe('SET CONSTRAINTS ALL IMMEDIATE');
        const [inside] = await tx.$queryRawUnsafe<{ runs: number }[]>(`SELECT coalesce(sum(runs), 0)::int AS runs FROM dashboard_run_hours_now WHERE status = 'failed'`);
        expect(inside!.runs).toBeGreaterThan(before.filter((row) => row.status === 'failed').reduce((sum, row) => sum + row.runs, 0));
        throw new Error('the process died');
      }),
    ).rejects.toThrow('the process died');
    // …and went back with them.
    expect(await rollup()).toEqual(before);
    await expectAgreement();
  }, 120_000);

  it('a run’s end takes its rollup row only as its transaction commits, so ends of one workflow do not queue behind each other’s open transactions (issue 25 §1)', async () => {
    const createdAt = new Date(Date.now() - 6 * hour);
    const [first, second] = [
      await createExecution(member, { workflowId: flows[1]!.id, workflowVersionId: flows[1]!.versionId, status: 'running', createdAt }),
      await createExecution(member, { workflowId: flows[1]!.id, workflowVersionId: flows[1]!.versionId, status: 'running', createdAt }),
    ];
    const ended = (id: string) => db().$executeRawUnsafe(`UPDATE executions SET status = 'succeeded', finished_at = now() WHERE id = $1::uuid`, id);
    await db().$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`UPDATE executions SET status = 'succeeded', finished_at = now() WHERE id = $1::uuid`, first.id);
      // The same workflow, hour and status: the same rollup row. Fired at the statement, the open transaction above
      // would hold it and this end would wait for it (the transaction waits for this one: a deadlock, not a pass).
      await ended(second.id);
    });
    await expectAgreement();
  }, 60_000);

  it('a run’s end appends its increment and waits for no rollup row, even one another transaction holds (issue 25 §1)', async () => {
    const createdAt = new Date(Date.now() - 4 * hour);
    const flow = flows[2]!;
    const [first, second] = [
      await createExecution(member, { workflowId: flow.id, workflowVersionId: flow.versionId, status: 'running', createdAt }),
      await createExecution(member, { workflowId: flow.id, workflowVersionId: flow.versionId, status: 'running', createdAt }),
    ];
    await db().$executeRawUnsafe(`UPDATE executions SET status = 'succeeded', finished_at = now() WHERE id = $1::uuid`, first.id);
    await rollup();
    const holder = new pg.Client({ connectionString: databaseUrl });
    await holder.connect();
    try {
      // A fold or a reconcile holding the hour's row until its commit.
      await holder.query('BEGIN');
      const held = await holder.query(`SELECT runs FROM dashboard_run_hours WHERE member_id = $1::uuid AND workflow_id = $2::uuid AND hour = date_trunc('hour', $3::timestamptz, 'UTC') AND status = 'succeeded' FOR UPDATE`, [member.id, flow.id, createdAt]);
      expect(held.rows).toHaveLength(1);
      // Writing into that row at commit, as before, this end would wait for the holder and fail its lock timeout.
      await db().$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '2s'`);
        await tx.$executeRawUnsafe(`UPDATE executions SET status = 'succeeded', finished_at = now() WHERE id = $1::uuid`, second.id);
      });
      await holder.query('COMMIT');
    } finally {
      await holder.end();
    }
    // Pending, the increment is already in the figures; folded, it is in the row.
    await expectAgreement();
    const row = (await rollup()).find((entry) => entry.workflow_id === flow.id && entry.hour.getTime() === Math.floor(createdAt.getTime() / hour) * hour && entry.status === 'succeeded' && entry.mailbox_id === null);
    expect(row?.runs).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it('folds increments into their hour’s row in place (a HOT update writing no index entry), so a busy hour leaves no dead versions in the indexes (issue 25 §1)', async () => {
    const createdAt = new Date(Date.now() - 5 * hour);
    const runs: Array<{ id: string }> = [];
    for (let index = 0; index < 6; index += 1) {
      runs.push(await createExecution(member, { workflowId: flows[2]!.id, workflowVersionId: flows[2]!.versionId, status: 'running', createdAt }));
    }
    const counted = await db().$transaction(async (tx) => {
      // The rollup triggers fire at the statement instead of at COMMIT, so each fold below sees its end; this
      // backend's pending statistics see the folds (they also hold its earlier, unflushed transactions: hence the
      // difference).
      await tx.$executeRawUnsafe('SET CONSTRAINTS ALL IMMEDIATE');
      const updates = async () => {
        const [row] = await tx.$queryRawUnsafe<Array<{ updated: number; hot: number }>>(
          `SELECT pg_stat_get_xact_tuples_updated('dashboard_run_hours'::regclass)::int AS updated,
                  pg_stat_get_xact_tuples_hot_updated('dashboard_run_hours'::regclass)::int AS hot`,
        );
        return row!;
      };
      const before = await updates();
      for (const run of runs) {
        await tx.$executeRawUnsafe(`UPDATE executions SET status = 'succeeded', finished_at = now() WHERE id = $1::uuid`, run.id);
        await foldRunRollupIncrements(tx);
      }
      const after = await updates();
      return { updated: after.updated - before.updated, hot: after.hot - before.hot };
    });
    // The first fold inserts the hour's row (or counts into an earlier test's), the others add to it.
    expect(counted.updated).toBeGreaterThanOrEqual(5);
    expect(counted.hot).toBe(counted.updated);
    await expectAgreement();
  }, 60_000);

  it('counts a replay (through the replay route) live while it runs, then rolled up in the hour it was created', async () => {
    const failed = await createExecution(admin, { workflowId: flows[0]!.id, workflowVersionId: flows[0]!.versionId, status: 'failed', createdAt: new Date(Date.now() - 3 * hour) });
    const response = await call('POST', `/api/v1/executions/${failed.id}/replay`, { cookie: admin.cookie, body: {} });
    expect(response.status).toBe(202);
    const replay = await db().execution.findUniqueOrThrow({ where: { id: response.body.executionId } });
    expect(replay).toMatchObject({ status: 'queued', startedBy: 'replay' });
    await expectAgreement();
    await db().execution.update({ where: { id: replay.id }, data: { status: 'running', startedAt: new Date() } });
    await db().execution.update({ where: { id: replay.id }, data: { status: 'succeeded', finishedAt: new Date() } });
    const hourOf = new Date(Math.floor(replay.createdAt.getTime() / hour) * hour);
    const row = (await rollup()).find((item) => item.hour.getTime() === hourOf.getTime() && item.workflow_id === flows[0]!.id && item.status === 'succeeded' && item.mailbox_id === null);
    expect(row?.last_created_at).toEqual(replay.createdAt);
    await expectAgreement();
  }, 120_000);

  it('places a run that waited 3 days in its creation hour when it finishes (cancelled through the route, or succeeded)', async () => {
    const created = new Date(Date.now() - 3 * day - 17 * 60_000);
    const flow = flows[2]!;
    const cancelled = await createExecution(member, { workflowId: flow.id, workflowVersionId: flow.versionId, status: 'waiting', mailboxId: flow.mailboxId, createdAt: created });
    const finished = await createExecution(member, { workflowId: flow.id, workflowVersionId: flow.versionId, status: 'waiting', createdAt: created });
    await expectAgreement();
    const response = await call('POST', `/api/v1/executions/${cancelled.id}/cancel`, { cookie: member.cookie, body: {} });
    expect(response.status).toBe(200);
    await db().execution.update({ where: { id: finished.id }, data: { status: 'succeeded', finishedAt: new Date() } });
    const hourOf = Math.floor(created.getTime() / hour) * hour;
    const rows = (await rollup()).filter((row) => row.hour.getTime() === hourOf && row.workflow_id === flow.id);
    expect(rows.find((row) => row.status === 'cancelled' && row.mailbox_id === flow.mailboxId)?.runs).toBeGreaterThanOrEqual(1);
    expect(rows.find((row) => row.status === 'succeeded' && row.mailbox_id === null)?.last_created_at).toEqual(created);
    await expectAgreement();
  }, 120_000);

  it('follows runs deleted by SQL: a row loses its latest run (last run read again) or its only one (row gone)', async () => {
    const flow = flows[1]!;
    const at = Date.parse('2026-03-29T00:30:00Z');
    const base = { workflowId: flow.id, workflowVersionId: flow.versionId, status: 'failed' as const };
    await createExecution(admin, { ...base, createdAt: new Date(at) });
    const latest = await createExecution(admin, { ...base, createdAt: new Date(at + 20 * 60_000) });
    const only = await createExecution(admin, { ...base, mailboxId: flow.mailboxId, status: 'cancelled', createdAt: new Date(at + 25 * 60_000) });
    const rowOf = async (status: string, mailboxId: string | null) =>
      (await rollup()).find((row) => row.hour.getTime() === Date.parse('2026-03-29T00:00:00Z') && row.workflow_id === flow.id && row.status === status && row.mailbox_id === mailboxId);
    const before = await rowOf('failed', null);
    expect(before?.last_created_at).toEqual(latest.createdAt);
    await db().$executeRawUnsafe('DELETE FROM executions WHERE id = ANY($1::uuid[])', [latest.id, only.id]);
    const after = await rowOf('failed', null);
    expect(after?.runs).toBe(before!.runs - 1);
    expect(after!.last_created_at.getTime()).toBeLessThan(latest.createdAt.getTime());
    expect(await rowOf('cancelled', flow.mailboxId)).toBeUndefined();
    await expectAgreement();
  }, 120_000);

  it('sees direct SQL writes: inserts, status changes, a run moved to another hour, workflow or out of the counted runs', async () => {
    await db().$executeRawUnsafe(
      `INSERT INTO executions (id, member_id, workflow_id, workflow_version_id, status, trigger_type, trigger_node_id, timeout_ms, created_at, updated_at)
       SELECT gen_random_uuid(), $1::uuid, $2::uuid, $3::uuid, (ARRAY['failed', 'succeeded', 'waiting'])[1 + i % 3], 'webhook', 'start', 60000,
              now() - i * interval '97 minutes', now()
         FROM generate_series(1, 60) AS i`,
      member.id,
      flows[2]!.id,
      flows[2]!.versionId,
    );
    // A session in another zone: the rollup's hours are still UTC hours (a Kolkata session's date_trunc would cut at :30).
    await db().$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`SET LOCAL TIME ZONE 'Asia/Kolkata'`);
      await tx.$executeRawUnsafe(
        `INSERT INTO executions (id, member_id, workflow_id, workflow_version_id, status, trigger_type, trigger_node_id, timeout_ms, created_at, updated_at)
         SELECT gen_random_uuid(), $1::uuid, $2::uuid, $3::uuid, 'succeeded', 'webhook', 'start', 60000, now() - i * interval '41 minutes', now()
           FROM generate_series(1, 30) AS i`,
        admin.id,
        flows[0]!.id,
        flows[0]!.versionId,
      );
    });
    expect((await rollup()).every((row) => row.hour.getTime() % hour === 0)).toBe(true);
    await expectAgreement();
    await db().$executeRawUnsafe(`UPDATE executions SET status = 'succeeded' WHERE status = 'waiting' AND workflow_id = $1::uuid`, flows[2]!.id);
    await db().$executeRawUnsafe(
      `UPDATE executions SET created_at = created_at - interval '50 minutes' WHERE id IN (SELECT id FROM executions WHERE status = 'failed' ORDER BY id LIMIT 40)`,
    );
    await db().$executeRawUnsafe(`UPDATE executions SET workflow_id = $1::uuid WHERE id IN (SELECT id FROM executions WHERE status = 'succeeded' AND workflow_id = $2::uuid ORDER BY id LIMIT 30)`, flows[1]!.id, flows[0]!.id);
    await db().$executeRawUnsafe(`UPDATE executions SET simulated = true WHERE id IN (SELECT id FROM executions WHERE status = 'cancelled' ORDER BY id LIMIT 20)`);
    await db().$executeRawUnsafe(`UPDATE executions SET started_by = 'loop_iteration' WHERE id IN (SELECT id FROM executions WHERE status = 'failed' AND started_by IS NULL ORDER BY id DESC LIMIT 20)`);
    await expectAgreement();
  }, 120_000);

  it('is reconciled by the runner every 10 minutes over the last 48 hours and daily over the whole history', () => {
    const entries = cronItems.filter((item) => item.task === 'dashboard-reconcile');
    expect(entries).toEqual([
      expect.objectContaining({ match: '*/10 * * * *' }),
      expect.objectContaining({ match: '43 2 * * *', payload: { history: true } }),
    ]);
  });

  it('has its pending increments folded by the runner every minute, the figures unchanged by the fold', async () => {
    expect(cronItems.filter((item) => item.task === 'dashboard-fold')).toEqual([expect.objectContaining({ match: '* * * * *' })]);
    const flow = flows[1]!;
    const run = await createExecution(admin, { workflowId: flow.id, workflowVersionId: flow.versionId, status: 'running', createdAt: new Date(Date.now() - 3 * hour) });
    await db().$executeRawUnsafe(`UPDATE executions SET status = 'failed', finished_at = now() WHERE id = $1::uuid`, run.id);
    const pending = async () => (await db().$queryRawUnsafe<{ count: number }[]>('SELECT count(*)::int AS count FROM dashboard_run_hour_deltas'))[0]!.count;
    expect(await pending()).toBeGreaterThan(0);
    await expectAgreement();
    await dashboardFoldTask.task({ _cron: { ts: new Date().toISOString(), backfilled: false } }, {} as unknown as JobHelpers);
    expect(await pending()).toBe(0);
    await expectAgreement();
  }, 120_000);

  it('is backfilled by its migration from the runs an upgrading instance already has', async () => {
    const migration = await readFile(new URL('../../../../prisma/migrations/20261202162000_dashboard_run_hours/migration.sql', import.meta.url), 'utf8');
    const backfill = migration.slice(migration.lastIndexOf('INSERT INTO "dashboard_run_hours"'));
    expect(backfill).toMatch(/^INSERT INTO "dashboard_run_hours"[\s\S]*GROUP BY 1, 2, 3, 4, 5;\s*$/);
    const kept = await rollup();
    expect(kept.length).toBeGreaterThan(0);
    await db().$transaction([db().$executeRawUnsafe('DELETE FROM dashboard_run_hours'), db().$executeRawUnsafe(backfill.trim().replace(/;$/, ''))]);
    expect(await rollup()).toEqual(kept);
  }, 60_000);

  it('is repaired by the dashboard-reconcile task: the last 48 hours every 10 minutes, the whole history daily, a wiped rollup too', async () => {
    const recentHour = new Date(Math.floor((Date.now() - 5 * hour) / hour) * hour);
    const march = (await rollup()).filter((row) => row.hour.getTime() < Date.parse('2026-04-01T00:00:00Z'));
    const oldHour = march[0]!.hour;
    const staleHour = march.at(-1)!.hour;
    // Corruption: a recent row counts 3 too many, an old hour's rows are lost, a row no run backs appears, a last run is wrong.
    const [recent] = await db().$queryRawUnsafe<{ n: number }[]>(
      `WITH r AS (SELECT ctid FROM dashboard_run_hours WHERE hour >= $1::timestamptz ORDER BY hour LIMIT 1)
       UPDATE dashboard_run_hours h SET runs = runs + 3 FROM r WHERE h.ctid = r.ctid RETURNING 1 AS n`,
      recentHour,
    );
    expect(recent).toBeDefined();
    const lost = await db().$executeRawUnsafe(`DELETE FROM dashboard_run_hours WHERE hour = $1::timestamptz`, oldHour);
    expect(lost).toBeGreaterThan(0);
    await db().$executeRawUnsafe(
      `INSERT INTO dashboard_run_hours (hour, member_id, workflow_id, mailbox_id, status, runs, last_created_at) VALUES ('2026-01-05T10:00:00Z', $1::uuid, $2::uuid, NULL, 'failed', 9, '2026-01-05T10:10:00Z')`,
      admin.id,
      flows[0]!.id,
    );
    await db().$executeRawUnsafe(`UPDATE dashboard_run_hours SET last_created_at = last_created_at + interval '1 hour' WHERE hour = $1::timestamptz`, staleHour);
    await expect(expectAgreement()).rejects.toThrow();

    // The frequent pass fixes the recent row only.
    const frequent = await reconcileDashboardRollups();
    // (Every rollup's reconciler runs; this test corrupts only this one.)
    expect(frequent.fixed).toMatchObject({ dashboard_run_hours: 1 });
    expect(frequent.toHour.getTime() - frequent.fromHour.getTime()).toBe(49 * hour);

    // The daily pass, through the task as the runner runs it, fixes the rest.
    const logs: string[] = [];
    const logger = { info: (message: string) => logs.push(message), warn: (message: string) => logs.push(message) };
    await dashboardReconcileTask.task({ _cron: { ts: new Date().toISOString(), backfilled: false }, history: true }, { logger } as unknown as JobHelpers);
    expect(logs.join('\n')).toMatch(/dashboard_run_hours \d+ rows/);
    await expectAgreement();
    expect((await reconcileDashboardRollups({ history: true })).fixed).toMatchObject({ dashboard_run_hours: 0 });

    // Wiped: rebuilt whole.
    const kept = await rollup();
    await db().$executeRawUnsafe('DELETE FROM dashboard_run_hours');
    expect((await reconcileDashboardRollups({ history: true })).fixed).toMatchObject({ dashboard_run_hours: kept.length });
    expect(await rollup()).toEqual(kept);
    await expectAgreement();
  }, 180_000);
});
