/**
 * The median duration from the rollup (`dashboard_duration_days` + the refine step, median-sql.ts) is exactly
 * `percentile_cont(0.5)` over the raw runs (`mediansRawSql`, the statement as it was), whatever the durations, the
 * window, the filters and whatever happened to the runs (status changes long after creation, deletions, direct SQL
 * writes, rolled-back transactions); and a corrupted rollup is repaired by the `duration-days` reconciler.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../../core/db';
import { createExecution } from '../../../testing/execution-factories';
import { createMember, type TestMember } from '../../../testing/factories';
import { call } from '../../../testing/rest-client';
import { useTestDatabase } from '../../../testing/test-database';
import { createWorkflow } from '../../../testing/workflow-factories';
import { seededRandom } from '../../../testing/seeded-random';
import type { DashboardAudience } from '../audience';
import { foldRunRollupIncrements } from '../repo-rollups';
import type { DashboardWindow } from '../window';
import { reconcileDurationDays } from './durations-reconcile';
import { mediansRawSql, mediansSql } from './median-sql';

const databaseUrl = await useTestDatabase();

interface Flow {
  id: string;
  versionId: string;
  memberId: string;
}

let ada: TestMember;
let bob: TestMember;
let flows: Flow[];
const mailboxes = [randomUUID(), randomUUID()];

/** The instant every window below is placed around: a Thursday at 13:27:41.123 UTC. */
const anchor = new Date('2026-03-19T13:27:41.123Z');
const hour = 3_600_000;
const dayMs = 24 * hour;
const at = (hours: number) => new Date(anchor.getTime() + hours * hour);
const history = { from: at(-24 * 75), to: at(24 * 5) };


/** Durations on the edges of bins (`floor(ln(1 + ms) / ln 1.05)` changes between them), as JavaScript sees them. */
const binEdges = Array.from({ length: 60 }, (_, k) => Math.round(1.05 ** (k * 5) - 1)).flatMap((ms) => [ms - 1, ms, ms + 1].filter((value) => value >= 0));

function windowOf(from: Date, to: Date): DashboardWindow {
  return { from, to, previousFrom: new Date(from.getTime() - (to.getTime() - from.getTime())), bucket: 'day', tz: 'UTC', bucketStarts: [] };
}

/** Rolling presets ending at several instants (midnight, :00, :30, :45, a millisecond before midnight), and custom windows. */
function windows(): DashboardWindow[] {
  const ends = [anchor, new Date('2026-03-19T00:00:00.000Z'), new Date('2026-03-18T23:59:59.999Z'), new Date('2026-03-20T05:30:00.000Z'), new Date('2026-03-17T18:45:00.000Z')];
  const presets = ends.flatMap((to) => [24, 24 * 7, 24 * 30].map((hours) => windowOf(new Date(to.getTime() - hours * hour), to)));
  const custom = [
    windowOf(new Date('2026-03-01T00:00:00.000Z'), new Date('2026-03-08T00:00:00.000Z')),
    windowOf(new Date('2026-03-10T12:00:00.000Z'), new Date('2026-03-11T00:00:00.000Z')),
    windowOf(new Date('2026-03-12T18:30:00.000Z'), new Date('2026-03-14T06:30:00.000Z')),
    windowOf(new Date('2026-03-15T00:00:00.000Z'), new Date('2026-03-16T00:00:00.000Z')),
    windowOf(new Date('2026-01-20T00:00:00.000Z'), new Date('2026-03-23T00:00:00.000Z')),
  ];
  return [...presets, ...custom];
}

function audiences(): DashboardAudience[] {
  const everyone = { memberId: null, workflowId: null, mailboxId: null, isAdmin: true };
  return [
    everyone,
    { ...everyone, memberId: ada.id },
    { ...everyone, workflowId: flows[1]!.id },
    { ...everyone, mailboxId: mailboxes[0]! },
    { ...everyone, memberId: bob.id, workflowId: flows[2]!.id, mailboxId: mailboxes[1]! },
  ];
}

type Row = { current: number | null; previous: number | null };

async function medians(statement: { text: string; values: unknown[] }): Promise<Row> {
  const rows = await db().$queryRawUnsafe<Row[]>(statement.text, ...statement.values);
  return rows[0]!;
}

/** Every window × audience: the rollup statement answers what the raw statement answers. */
async function expectRollupAgreesWithRaw(): Promise<number> {
  let compared = 0;
  for (const window of windows()) {
    for (const audience of audiences()) {
      const [rolled, raw] = await Promise.all([medians(mediansSql(window, audience)), medians(mediansRawSql(window, audience))]);
      expect(rolled, `${window.from.toISOString()} → ${window.to.toISOString()} ${JSON.stringify(audience)}`).toEqual(raw);
      if (raw.current !== null) compared += 1;
    }
  }
  return compared;
}

/** The reconciler over the whole history: the number of rollup rows that disagreed with the raw runs. */
const reconcileAll = () => db().$transaction((tx) => reconcileDurationDays(tx, history.from, history.to));

interface Fact {
  flow: Flow;
  mailboxId: string | null;
  createdAt: Date;
  durationMs: number | null;
  simulated?: boolean;
  startedBy?: string | null;
  evalRunId?: string | null;
}

/** Writes runs as the engine leaves them (one multi-row INSERT through Prisma: the trigger sees each row). */
async function write(facts: Fact[]) {
  await db().execution.createMany({
    data: facts.map((fact) => ({
      memberId: fact.flow.memberId,
      workflowId: fact.flow.id,
      workflowVersionId: fact.flow.versionId,
      status: fact.durationMs === null ? 'running' : 'succeeded',
      simulated: fact.simulated ?? false,
      startedBy: fact.startedBy ?? null,
      evalRunId: fact.evalRunId ?? null,
      mailboxId: fact.mailboxId,
      triggerType: 'webhook',
      triggerNodeId: 'start',
      timeoutMs: 3_600_000,
      createdAt: fact.createdAt,
      startedAt: fact.createdAt,
      finishedAt: fact.durationMs === null ? null : new Date(fact.createdAt.getTime() + fact.durationMs),
    })),
  });
}

/** A random set of runs around the windows: durations drawn from ties, 0 ms, bin edges, a log-normal spread and multi-day runs. */
function randomFacts(seed: number, count: number): Fact[] {
  const next = seededRandom(seed);
  const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)]!;
  const ties = [0, 1, 250, 1_000, 1_000, 86_400_000 * 3];
  return Array.from({ length: count }, (): Fact => {
    const kind = next();
    const durationMs =
      kind < 0.15 ? pick(ties) : kind < 0.35 ? pick(binEdges) : kind < 0.9 ? Math.round(Math.exp(6.5 + 1.8 * (next() + next() + next() - 1.5) * 2)) : kind < 0.95 ? Math.round(next() * 4 * dayMs) : null;
    const counted = next();
    return {
      flow: pick(flows),
      mailboxId: pick([null, mailboxes[0]!, mailboxes[1]!]),
      // Within 62 days before the anchor and a day after it; whole milliseconds, some on midnights and :30.
      createdAt: next() < 0.05 ? new Date(Math.floor(at(-24 * 62 * next()).getTime() / (30 * 60_000)) * 30 * 60_000) : new Date(Math.round(at(24 - 24 * 63 * next()).getTime())),
      durationMs,
      simulated: counted < 0.05,
      startedBy: counted > 0.95 ? 'loop_iteration' : counted > 0.9 ? 'replay' : null,
      evalRunId: counted >= 0.05 && counted < 0.07 ? randomUUID() : null,
    };
  });
}

beforeAll(async () => {
  ada = await createMember({ name: 'Ada' });
  bob = await createMember({ name: 'Bob' });
  const flow = async (owner: TestMember, name: string): Promise<Flow> => {
    const created = await createWorkflow(owner, { name });
    return { id: created.workflow.id, versionId: created.version!.id, memberId: owner.id };
  };
  flows = [await flow(ada, 'Invoices'), await flow(ada, 'Receipts'), await flow(bob, 'Support')];
});

beforeEach(async () => {
  await db().execution.deleteMany();
});

describe('the median duration from the rollup is exactly percentile_cont over the raw runs', () => {
  it.each([
    ['no run at all', 0, 0],
    ['one run', 1, 1],
    ['two runs', 2, 2],
    ['three runs', 3, 3],
    ['an odd count', 4, 301],
    ['an even count', 5, 400],
    ['a larger set', 6, 1_500],
  ])('for %s, over rolling and custom windows and every filter (seed %i)', async (_name, seed, count) => {
    await write(randomFacts(seed, count));
    const compared = await expectRollupAgreesWithRaw();
    if (count >= 300) expect(compared).toBeGreaterThan(20);
    expect(await reconcileAll()).toBe(0);
  });

  it('for ties that straddle the two middle ranks, 0 ms and a 3-day run in a one-day window', async () => {
    const createdAt = new Date('2026-03-15T10:00:00.000Z');
    const runs = (durations: number[]) => write(durations.map((durationMs) => ({ flow: flows[0]!, mailboxId: null, createdAt, durationMs })));
    const window = windowOf(new Date('2026-03-15T00:00:00.000Z'), new Date('2026-03-16T00:00:00.000Z'));
    const everyone = { memberId: null, workflowId: null, mailboxId: null, isAdmin: true };
    // 8 runs: the 4th and 5th (7 ms and 3 days) lie in different bins: their mean.
    await runs([0, 0, 0, 7, 3 * dayMs, 3 * dayMs, 3 * dayMs, 3 * dayMs]);
    expect(await medians(mediansSql(window, everyone))).toEqual({ current: 7 + (3 * dayMs - 7) * 0.5, previous: null });
    // 9 runs: the 5th is 7 ms. 10 runs: the 5th and 6th are both 7 ms (a tie inside one bin).
    await runs([0]);
    expect(await medians(mediansSql(window, everyone))).toEqual({ current: 7, previous: null });
    await runs([7]);
    expect(await medians(mediansSql(window, everyone))).toEqual({ current: 7, previous: null });
    expect(await medians(mediansRawSql(window, everyone))).toEqual({ current: 7, previous: null });
    expect(await expectRollupAgreesWithRaw()).toBeGreaterThan(0);
  });
});

describe('the rollup follows the raw runs through every write', () => {
  it('after a run waiting 3 days then finishing, a status change, a move to another workflow and a clock that ran backwards', async () => {
    await write(randomFacts(11, 200));
    const waiting = await createExecution(ada, { workflowId: flows[0]!.id, workflowVersionId: flows[0]!.versionId, status: 'waiting', createdAt: at(-24 * 4), finishedAt: null });
    await db().execution.update({ where: { id: waiting.id }, data: { status: 'succeeded', finishedAt: at(-24) } });
    await expectRollupAgreesWithRaw();
    // A replay clears the end, then ends again much later.
    await db().execution.update({ where: { id: waiting.id }, data: { status: 'running', finishedAt: null } });
    await expectRollupAgreesWithRaw();
    await db().execution.update({ where: { id: waiting.id }, data: { status: 'failed', finishedAt: at(-2) } });
    // Status alone is not in the key: the trigger does nothing, the figures still agree.
    await db().execution.updateMany({ where: { status: 'succeeded' }, data: { status: 'failed' } });
    // Moved between workflows and members, mailboxes, evaluation and test runs, loop iterations, and a negative duration.
    const some = await db().execution.findMany({ where: { finishedAt: { not: null } }, take: 40, orderBy: { seq: 'asc' } });
    for (const [index, execution] of some.entries()) {
      const target = flows[index % 3]!;
      const data = [
        { workflowId: target.id, memberId: target.memberId },
        { mailboxId: index % 2 ? null : mailboxes[1]! },
        { simulated: !execution.simulated },
        { startedBy: execution.startedBy === 'loop_iteration' ? null : 'loop_iteration' },
        { evalRunId: execution.evalRunId ? null : randomUUID() },
        { startedAt: new Date(execution.finishedAt!.getTime() + 5) },
        { createdAt: new Date(execution.createdAt.getTime() - 3 * dayMs) },
        { startedAt: null },
      ][index % 8]!;
      await db().execution.update({ where: { id: execution.id }, data });
    }
    expect(await expectRollupAgreesWithRaw()).toBeGreaterThan(20);
    expect(await reconcileAll()).toBe(0);
  });

  it('after deletions, direct SQL writes and rolled-back transactions', async () => {
    await write(randomFacts(12, 300));
    await db().execution.deleteMany({ where: { workflowId: flows[1]!.id } });
    await db().$executeRawUnsafe(`DELETE FROM executions WHERE seq % 3 = 0`);
    // Direct SQL, as a migration or an operator would write: inserts, a bulk update of the instants, and the
    // bench's INSERT … SELECT.
    await db().$executeRawUnsafe(
      `INSERT INTO executions (id, member_id, workflow_id, workflow_version_id, status, timeout_ms, created_at, started_at, finished_at, updated_at, mailbox_id)
       SELECT gen_random_uuid(), $1::uuid, $2::uuid, $3::uuid, 'succeeded', 1000, t, t, t + (g * interval '137 milliseconds'), now(), CASE WHEN g % 2 = 0 THEN $4::uuid END
         FROM generate_series(1, 150) g, LATERAL (SELECT $5::timestamptz - g * interval '7 hours 13 minutes' AS t) c`,
      bob.id,
      flows[2]!.id,
      flows[2]!.versionId,
      mailboxes[1],
      anchor,
    );
    await db().$executeRawUnsafe(`UPDATE executions SET finished_at = finished_at + interval '1 second' * (seq % 5) WHERE seq % 4 = 1`);
    // A crash mid-transaction: the runs and their rollup rows are gone together.
    const before = await db().$queryRawUnsafe<{ rows: number }[]>(`SELECT coalesce(sum(runs), 0)::int AS rows FROM dashboard_duration_days_now`);
    await expect(
      db().$transaction(async (tx) => {
        await tx.execution.createMany({ data: randomFacts(13, 50).map((fact) => ({ memberId: fact.flow.memberId, workflowId: fact.flow.id, workflowVersionId: fact.flow.versionId, status: 'succeeded', timeoutMs: 1000, createdAt: fact.createdAt, startedAt: fact.createdAt, finishedAt: at(0) })) });
        await tx.$executeRawUnsafe(`DELETE FROM executions WHERE seq % 2 = 0`);
        throw new Error('the runner died');
      }),
    ).rejects.toThrow('the runner died');
    expect(await db().$queryRawUnsafe<{ rows: number }[]>(`SELECT coalesce(sum(runs), 0)::int AS rows FROM dashboard_duration_days_now`)).toEqual(before);
    expect(await expectRollupAgreesWithRaw()).toBeGreaterThan(20);
    expect(await reconcileAll()).toBe(0);
  });
});

describe('the duration-days reconciler', () => {
  it('repairs a wiped, miscounted and polluted rollup, reports the rows it fixed, and then finds nothing to fix', async () => {
    await write(randomFacts(21, 400));
    // The runner's minute fold: the runs' increments are now rollup rows.
    await foldRunRollupIncrements();
    const rows = async () => (await db().$queryRawUnsafe<{ count: number }[]>(`SELECT count(*)::int AS count FROM dashboard_duration_days WHERE runs <> 0`))[0]!.count;
    const kept = await rows();
    expect(kept).toBeGreaterThan(100);
    await db().$executeRawUnsafe(`DELETE FROM dashboard_duration_days WHERE bin % 3 = 0`);
    const wiped = kept - (await rows());
    const wrong = await db().$executeRawUnsafe(`UPDATE dashboard_duration_days SET runs = runs + 2 WHERE bin % 3 = 1`);
    const stray = await db().$executeRawUnsafe(
      `INSERT INTO dashboard_duration_days (day, member_id, workflow_id, mailbox_id, bin, runs) VALUES ('2026-03-02', $1::uuid, $2::uuid, NULL, 900, 4), ('2026-03-03', $1::uuid, $2::uuid, $3::uuid, 901, 1)`,
      ada.id,
      flows[0]!.id,
      mailboxes[0],
    );
    // The figures are wrong now (what the reconciler is for) …
    const window = windowOf(at(-24 * 30), anchor);
    const everyone = { memberId: null, workflowId: null, mailboxId: null, isAdmin: true };
    expect(await medians(mediansSql(window, everyone))).not.toEqual(await medians(mediansRawSql(window, everyone)));
    // … a range of hours repairs the days that hold it, and only those …
    const partly = await db().$transaction((tx) => reconcileDurationDays(tx, new Date('2026-03-02T05:00:00.000Z'), new Date('2026-03-02T06:00:00.000Z')));
    expect(partly).toBeGreaterThan(0);
    // … and the whole history the rest: every row it found wrong, counted once.
    expect(partly + (await reconcileAll())).toBe(wiped + wrong + stray);
    expect(await rows()).toBe(kept);
    expect(await reconcileAll()).toBe(0);
    expect(await expectRollupAgreesWithRaw()).toBeGreaterThan(20);
  });
});

describe('the duration-days reconciler and a writer at the same time', () => {
  it('neither waits for the other, and a run committed while it corrects is counted once (its increment folded after it)', async () => {
    const createdAt = new Date('2026-03-10T10:00:00.000Z');
    await write([{ flow: flows[0]!, mailboxId: null, createdAt, durationMs: 1_000 }, ...randomFacts(41, 100)]);
    await foldRunRollupIncrements();
    // The day's organisation row for 1 s runs is 2 too high: the reconciler must lower it.
    await db().$executeRawUnsafe(`UPDATE dashboard_duration_days SET runs = runs + 2 WHERE day = '2026-03-10' AND member_id IS NULL AND bin = dashboard_duration_bin(1000)`);
    const writer = new pg.Client({ connectionString: databaseUrl });
    await writer.connect();
    try {
      // A run of the same day and bin, written but not committed; its trigger made to fire now, as in a commit in
      // progress: it appends its increment and holds no rollup row.
      await writer.query('BEGIN');
      await writer.query(
        `INSERT INTO executions (id, member_id, workflow_id, workflow_version_id, status, timeout_ms, created_at, started_at, finished_at, updated_at)
         VALUES (gen_random_uuid(), $1::uuid, $2::uuid, $3::uuid, 'succeeded', 1000, $4::timestamptz, $4::timestamptz, $4::timestamptz + interval '1 second', now())`,
        [ada.id, flows[0]!.id, flows[0]!.versionId, createdAt],
      );
      await writer.query('SET CONSTRAINTS ALL IMMEDIATE');
      // The reconciler ends while the writer's transaction is open (a wait would time out here), without its run.
      const reconciled = await db().$transaction(
        async (tx) => {
          await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '5s'`);
          return reconcileDurationDays(tx, new Date('2026-03-10T00:00:00.000Z'), new Date('2026-03-11T00:00:00.000Z'));
        },
        { timeout: 60_000 },
      );
      expect(reconciled).toBe(1);
      await writer.query('COMMIT');
    } finally {
      await writer.end();
    }
    // The run's increment, pending, is read by the figures; the next reconcile folds it and finds nothing to fix.
    expect(await expectRollupAgreesWithRaw()).toBeGreaterThan(5);
    expect(await reconcileAll()).toBe(0);
    expect(await expectRollupAgreesWithRaw()).toBeGreaterThan(5);
  });
});

describe('GET /api/v1/dashboard/executions: the median is the raw statement’s', () => {
  it.each([
    ['period=24h', 'UTC'],
    ['period=7d', 'Europe/Paris'],
    ['period=30d', 'Asia/Kolkata'],
    ['period=custom&from=2026-03-26T23:00:00Z&to=2026-03-30T22:00:00Z', 'Europe/Paris'],
    ['period=custom&from=2026-03-10T18:30:00Z&to=2026-03-17T18:30:00Z', 'Asia/Kolkata'],
    ['period=custom&from=2026-03-14T18:15:00Z&to=2026-03-16T18:15:00Z', 'Asia/Kathmandu'],
  ])('for %s in %s, org-wide and for a member', async (period, tz) => {
    const admin = await createMember({ role: 'admin', name: 'Root' });
    const now = Date.now();
    // Runs over the last 62 days (the presets) and around the custom windows (March 2026).
    const recent = randomFacts(31, 800).map((fact) => ({ ...fact, createdAt: new Date(fact.createdAt.getTime() - anchor.getTime() + now) }));
    await write([...recent, ...randomFacts(32, 300).map((fact) => ({ ...fact, createdAt: new Date(fact.createdAt.getTime() + 12 * dayMs) }))]);
    for (const [reader, scope] of [
      [admin, 'scope=org'],
      [ada, 'scope=me'],
    ] as const) {
      const response = await call('GET', `/api/v1/dashboard/executions?${period}&tz=${encodeURIComponent(tz)}&${scope}`, { cookie: reader.cookie });
      expect(response.status).toBe(200);
      const window = windowOf(new Date(response.body.window.from), new Date(response.body.window.to));
      const raw = await medians(mediansRawSql(window, { memberId: scope === 'scope=me' ? ada.id : null, workflowId: null, mailboxId: null, isAdmin: false }));
      expect(raw.current).not.toBeNull();
      expect({ current: response.body.current.medianDurationMs, previous: response.body.previous.medianDurationMs }).toEqual(raw);
    }
  });
});
