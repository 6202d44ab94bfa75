/**
 * What bounding called runs costs (issue 18, runaway recursion): the checks every start of a
 * sub-workflow run or loop iteration now makes (run/children.ts) and the lineage read of a failed
 * called run (run/finish.ts), on a busy table, next to a floor measured in the same run.
 *
 *   npx tsx bench/called-runs.ts          (alone, with its own temporary database)
 *
 * Seeded by SQL: 200,000 finished executions of 200 members, then for the measured member a chain of
 * 9 runs (levels 0-8, each called by the one above) and 499 live runs holding no slot, one short of
 * the default cap (MEMBER_MAX_SLOTLESS_RUNS 500): the count reads its most rows. VACUUM ANALYZE.
 * Measured, interleaved, one at a time, each in its own transaction as the engine runs them:
 *   floor:  the caller's row read by id (what a start read before);
 *   checks: `calledRunPosition` (the caller's depth and chain) + `roomForSlotlessRuns` (the member's
 *           advisory lock and the count of its live slot-less runs);
 *   lineage: `callLineage` of the run at level 8 (a walk of 9 rows up `parent_execution_id`).
 * Prints p50/p95/max of each and the checks' cost over the floor. Information only (no target).
 */
import { randomUUID } from 'node:crypto';
import { runSectionAlone } from './database';
import { fixed, spread, table } from './stats';

export async function runCalledRunsBench(options: { databaseUrl: string; log: (message: string) => void; rounds?: number }) {
  const { log } = options;
  const rounds = options.rounds ?? (Number(process.env.BENCH_CALLS_ROUNDS) || 500);
  process.env.DATABASE_URL = options.databaseUrl;
  process.env.LOG_LEVEL ??= 'warn';
  const { resetConfigForTests } = await import('../server/core/config');
  resetConfigForTests();
  const { db, disconnectDb } = await import('../server/core/db');
  const { calledRunPosition, callLineage } = await import('../server/engine/run/call-chain');
  const { roomForSlotlessRuns } = await import('../server/engine/run/slotless-runs');

  log('');
  log(`called runs: the start checks and the failure lineage, ${rounds} rounds, on 200,000 executions`);
  try {
    const seedStarted = Date.now();
    const members = await db().$queryRaw<{ id: string }[]>`
      INSERT INTO members (id, email, name, password_hash, updated_at)
      SELECT gen_random_uuid(), 'calls-bench-' || n || '-' || ${randomUUID().slice(0, 8)} || '@example.test', 'Calls bench', 'x', now()
      FROM generate_series(1, 200) AS n RETURNING id`;
    const memberIds = members.map((row) => row.id);
    const member = memberIds[0];
    const workflows = await db().$queryRaw<{ id: string }[]>`
      INSERT INTO workflows (id, member_id, name, graph, updated_at)
      SELECT gen_random_uuid(), ${member}::uuid, 'Level ' || n, '{}'::jsonb, now() FROM generate_series(0, 9) AS n RETURNING id`;
    const workflowIds = workflows.map((row) => row.id);
    const versionId = randomUUID();
    await db().$executeRaw`
      INSERT INTO workflow_versions (id, workflow_id, number, graph, created_by)
      VALUES (${versionId}::uuid, ${workflowIds[0]}::uuid, 1, '{}'::jsonb, ${member}::uuid)`;
    // Finished runs of every member: the table a count and a walk must not scan.
    await db().$executeRaw`
      INSERT INTO executions (id, member_id, workflow_id, workflow_version_id, status, holds_slot, timeout_ms, finished_at, updated_at)
      SELECT gen_random_uuid(), (${memberIds}::uuid[])[1 + n % 200], ${workflowIds[0]}::uuid, ${versionId}::uuid, CASE WHEN n % 7 = 0 THEN 'failed' ELSE 'succeeded' END,
        n % 3 <> 0, 3600000, now(), now()
      FROM generate_series(1, 200000) AS n`;
    // A chain of 9 called runs, levels 0-8.
    let parent: string | null = null;
    const chain: string[] = [];
    for (let level = 0; level <= 8; level += 1) {
      const id = randomUUID();
      await db().$executeRaw`
        INSERT INTO executions (id, member_id, workflow_id, workflow_version_id, status, holds_slot, timeout_ms, parent_execution_id, started_by, call_depth, caller_workflow_ids, updated_at)
        VALUES (${id}::uuid, ${member}::uuid, ${workflowIds[level]}::uuid, ${versionId}::uuid, 'running', ${level === 0}, 3600000, ${parent}::uuid,
          ${level === 0 ? null : 'sub_workflow'}, ${level}, ${workflowIds.slice(0, level)}::uuid[], now())`;
      chain.push(id);
      parent = id;
    }
    // Live runs holding no slot: with the chain's 8 called runs, one short of the cap.
    await db().$executeRaw`
      INSERT INTO executions (id, member_id, workflow_id, workflow_version_id, status, holds_slot, simulated, timeout_ms, updated_at)
      SELECT gen_random_uuid(), ${member}::uuid, ${workflowIds[0]}::uuid, ${versionId}::uuid, 'waiting', false, true, 3600000, now() FROM generate_series(1, 491)`;
    await db().$executeRawUnsafe('VACUUM ANALYZE executions');
    log(`  seeded in ${fixed((Date.now() - seedStarted) / 1000)} s`);
    const plan = await db().$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(
      `EXPLAIN ANALYZE SELECT count(*) FROM executions WHERE member_id = '${member}'::uuid AND holds_slot = false AND status IN ('queued', 'running', 'waiting')`,
    );
    log(`  the count's plan: ${plan.map((row) => row['QUERY PLAN'].trim()).filter((line) => /Scan|Execution Time/.test(line)).join(' | ')}`);

    const caller = chain[4];
    const deepest = chain[8];
    const floor: number[] = [];
    const checks: number[] = [];
    const lineage: number[] = [];
    let roomy = 0;
    for (let round = 0; round < rounds; round += 1) {
      let started = performance.now();
      await db().$transaction((tx) => tx.execution.findUniqueOrThrow({ where: { id: caller }, select: { workflowId: true } }));
      floor.push(performance.now() - started);
      started = performance.now();
      await db().$transaction(async (tx) => {
        await calledRunPosition(tx, caller, workflowIds[9]);
        if (await roomForSlotlessRuns(tx, member)) roomy += 1;
      });
      checks.push(performance.now() - started);
      started = performance.now();
      await db().$transaction((tx) => callLineage(tx, { id: deepest, parentExecutionId: chain[7], startedBy: 'sub_workflow' }));
      lineage.push(performance.now() - started);
    }
    if (roomy !== rounds) throw new Error(`the member should have had room in every round (${roomy}/${rounds})`);
    const rows = [
      ['', 'p50 ms', 'p95 ms', 'max ms'],
      ...([
        ['floor: the caller row by id', spread(floor)],
        ['checks: chain + cap', spread(checks)],
        ['lineage of level 8', spread(lineage)],
      ] as const).map(([name, figures]) => [name, fixed(figures.p50, 2), fixed(figures.p95, 2), fixed(figures.max, 2)]),
    ];
    for (const line of table(rows)) log(`  ${line}`);
    const overhead = spread(checks).p50 - spread(floor).p50;
    log(`  the checks over the floor: ${fixed(overhead, 2)} ms at p50 per called run started`);
    return { checksP50Ms: spread(checks).p50, floorP50Ms: spread(floor).p50, lineageP50Ms: spread(lineage).p50 };
  } finally {
    await disconnectDb();
  }
}

await runSectionAlone(import.meta.url, runCalledRunsBench);
