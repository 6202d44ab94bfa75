/**
 * The workflow engine section of `npm run bench` (BENCH_ENGINE=0 skips it; alone: `npx tsx bench/engine.ts`,
 * embedded PostgreSQL or BENCH_DATABASE_URL). Every figure is printed next to a floor measured in the same run:
 *
 * 1. Throughput: completed executions per second of the 5-node workflow of the crash test (webhook trigger →
 *    data.set → logic.if → data.set → http.request to a sink in this process) run by the real runner (`runner/main.ts`
 *    in a child), about BENCH_ENGINE_INFLIGHT runs queued or running at any time; against graphile-worker alone
 *    (bench/engine-graphile.ts, the runner's worker settings, a database of its own on the same server) running
 *    chains of 5 trivial jobs. Both run a few seconds and are analyzed first (settleAsAnInstance), then interleaved
 *    rounds. Target: ≥ 1.0 × the floor (issue 25 §1).
 * 2. Per-step overhead, from the step rows: for each step after the trigger, the gap between the previous
 *    step's finishedAt and its startedAt, plus its own durationMs unless it is the HTTP call (the sink's time is
 *    not the engine's). Floor: graphile's hop from one job of a chain to the next. Target: p50 ≤ 10 ms, judged
 *    one run at a time (BENCH_ENGINE_ALONE_SECONDS, 8; 0 skips it) against one chain at a time: saturated or at
 *    the webhook's rate (printed too) the figure measures how many runs share the CPU, not a step's cost.
 * 3. Webhook-to-first-step latency: an open loop of POST /hooks/wf/{token} at BENCH_ENGINE_WEBHOOK_RATE (50) per
 *    second on the production server (server/http/main.ts, bench/processes.ts) with the runner running; latency
 *    = the trigger step's startedAt − the request's scheduled send time. Floor: `graphile_worker.add_job` at
 *    the same rate from this process, latency = the job's start − its scheduled time. Target: p99 < 100 ms (issue 25 §1).
 * 4. The executions list and detail at 1,000,000 stored executions (bench/engine-lists.ts).
 * 5. Expression evaluation per step (bench/expressions.ts, first, before the children start; BENCH_ENGINE_EXPRESSIONS=0
 *    skips it): the bench workflow's parameters resolved on the expression sandbox's worker thread, as a step does,
 *    against the same resolved in this thread (the floor, what a step paid before the sandbox).
 *
 * PASS/MISS is information only: it never changes the exit code.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { ensureProductionBuild } from './build';
import { clusterCpuMs, othersShare, processCpuMs } from './cpu';
import { runSectionAlone } from './database';
import { DbObserver } from './db-stats';
import { createEngineFeed } from './engine-feed';
import { chainTask, createFloorDatabase, startGraphileFloor, type ChainPayload } from './engine-graphile';
import { benchNodeIds, engineBenchGraph } from './engine-graph';
import { startSink } from './engine-sink';
import { burstsLines, defaultSlotsBurstLines, measureBursts } from './engine-burst';
import { HttpConnection } from './http-client';
import { alive, feed, quantiles, RunnerStalled, settleAsAnInstance, stepOverheads, webhookLatencies, type Target, type ThroughputSlice, type WebhookSend } from './engine-measure';
import { benchWorkflowSlots, runnerNodeArgs, settings, targets, webNodeArgs } from './engine-settings';
import { startServer } from './processes';
import { fixed, table } from './stats';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const tsxArgs = (entry: string) => ['--import', 'tsx', entry];

type RunnerMode = 'main' | 'tasks';
type Quantiles = ReturnType<typeof quantiles>;

interface Measured {
  slices: ThroughputSlice[];
  floorHops: number[];
  saturated: { hops: number[]; perExecution: number[]; queueDelay: number[]; httpMs: number[]; lead: number[]; tail: number[]; statuses: Map<string, number> };
  /** One run (or chain) at a time: the engine's own per-step overhead, no queue in it. */
  alone: { hops: number[]; perExecution: number[]; floorHops: number[] };
  // cpuPerRun: ms of CPU per accepted run in each process, over the open loop and its drain.
  webhook: null | { latency: Quantiles; http: Quantiles; floor: Quantiles; statuses: Map<string, number>; missing: number; slowest: string; overhead: Awaited<ReturnType<typeof stepOverheads>>; cpuPerRun: { web: number; runner: number; pg: number } };
  runnerLines: { lines: number; distinct: string[] };
}

/** Lines a runner prints when graphile-worker gives its worker pool up. */
const stallPattern = /Failed to complete jobs|Failed to fail jobs|committing seppuku|queue is in an inconsistent state|runner failed/;

export async function runEngineBench(options: { databaseUrl: string; log: (message: string) => void }): Promise<void> {
  const { log } = options;
  const { databaseUrl } = options;
  process.env.DATABASE_URL = databaseUrl;
  const { db, disconnectDb } = await import('../server/core/db');
  const { resetConfigForTests } = await import('../server/core/config');
  const { startExecution } = await import('../server/engine/run/start');
  const { findNodeType } = await import('../server/engine/nodes/registry');
  const { tokenHash, randomToken } = await import('../server/core/auth/tokens');
  const { createWorkflow, webhookGraph } = await import('../server/testing/workflow-factories');
  const { graphInput } = await import('../server/engine/contract/graph');
  const { validateGraph } = await import('../server/engine/graph/validate-graph');
  const { findFreePort } = await import('../server/core/free-port');
  resetConfigForTests();

  log('');
  log(
    `workflow engine: the 5-node workflow (webhook → data.set → logic.if → data.set → http.request to a local sink) on the real runner, ` +
      `vs graphile-worker alone running 5 chained trivial jobs; ${settings.inflight} runs in flight, ${settings.rounds} × ${fixed(settings.seconds / settings.rounds, 1)} s per target; ` +
      `load average ${os.loadavg().map((v) => v.toFixed(2)).join(' ')}`,
  );

  if (process.env.BENCH_ENGINE_EXPRESSIONS !== '0') {
    const { runExpressionBench } = await import('./expressions');
    await runExpressionBench({ log });
  }

  const sink = await startSink();
  const graph = engineBenchGraph(`${sink.url}/sink`);
  const issues = validateGraph(graphInput.parse(graph));
  if (issues.length) log(`  the bench's workflow does not pass the graph validator: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`);
  const missingTypes = [...new Set((graph.nodes ?? []).map((node) => `${node.type}@${node.version}`))].filter((key) => {
    const [type, version] = key.split('@');
    return !findNodeType(type, Number(version));
  });
  if (missingTypes.length) log(`  node types not in the registry yet: ${missingTypes.join(', ')}; their steps fail (measured anyway, and said so)`);

  const member = await db().member.create({
    data: { email: `engine-run-${randomToken(4)}@example.test`, name: 'Engine Run Bench', role: 'member', status: 'active', passwordHash: 'x' },
  });
  const { workflow, version } = await createWorkflow(member, { name: 'Engine bench', graph });
  const token = randomToken(32);
  // The engine is measured, not the per-workflow policy (benchWorkflowSlots).
  await db().workflow.update({ where: { id: workflow.id }, data: { webhookTokenHash: tokenHash(token), maxConcurrency: benchWorkflowSlots } });
  // A trigger-only workflow: one run of it shows a runner is taking jobs.
  const probe = await createWorkflow(member, { name: 'Engine bench probe', graph: webhookGraph() });

  const childEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl,
      HTTP_NODE_ALLOW_HOSTS: '127.0.0.1',
      NEXT_TELEMETRY_DISABLED: '1',
      ...extra,
    };
    delete env.BENCH_DATABASE_URL;
    return env;
  };

  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  // The floor in a database of its own on the same server (its CPU is still the cluster's): graphile-worker wakes every
  // worker listening in a database at each job added there, and each wakened worker fetches. In one database the
  // idle runner fetched at every floor job (≈ 470 a second, a quarter of a core in the runner and PostgreSQL's work
  // for each fetch, counted against the floor) and the idle floor at every engine job.
  const floorDatabase = await createFloorDatabase(client, databaseUrl);
  const floorClient = new pg.Client({ connectionString: floorDatabase.url });
  const observer = await DbObserver.open(databaseUrl);
  const postmasterPid = await observer.postmasterPid();
  const children = new Set<{ stop(): Promise<void> }>();
  let floorClientConnected = false;

  const startRuns = await createEngineFeed(client);

  let lastBatchDelay = '-1';
  /** `batchDelay` (tasks mode): graphile's completion batching, -1 (off) unless BENCH_ENGINE_BATCH_DELAY says otherwise. */
  async function measure(mode: RunnerMode, batchDelay = process.env.BENCH_ENGINE_BATCH_DELAY ?? '-1'): Promise<Measured> {
    // The runner at LOG_LEVEL=warn, as the web server is benched (at info graphile logs a line per job).
    const runner =
      mode === 'main'
        ? await startServer({ name: 'runner', command: process.execPath, args: [...runnerNodeArgs, ...tsxArgs('runner/main.ts')], cwd: root, env: childEnv({}), readyAtSpawn: true })
        : await startServer({ name: 'engine-runner', command: process.execPath, args: tsxArgs('bench/engine-runner.ts'), cwd: root, env: childEnv({ BENCH_ENGINE_BATCH_DELAY: batchDelay }), readyPattern: /engine runner ready/ });
    children.add(runner);
    // The floor completes its jobs as the engine's runner does: as runner/worker-preset.ts says (one by one), or as the
    // task list is set; BENCH_FLOOR_BATCH_DELAY overrides it.
    const floorBatchDelay = process.env.BENCH_FLOOR_BATCH_DELAY ?? (mode === 'main' ? undefined : batchDelay);
    const floor = await startGraphileFloor({ databaseUrl: floorDatabase.url, cwd: root, env: childEnv(floorBatchDelay === undefined ? {} : { BENCH_FLOOR_BATCH_DELAY: floorBatchDelay }) });
    children.add(floor);
    const checkRunner = () => {
      const stalled = stallPattern.exec(runner.tail());
      if (stalled) {
        const line = runner.tail().split('\n').find((candidate) => stallPattern.test(candidate)) ?? stalled[0];
        const message = /"msg":"([^"]*)"/.exec(line)?.[1] ?? line.slice(0, 300);
        const code = /"code":"([0-9A-Z]{5})"/.exec(line)?.[1];
        throw new RunnerStalled(`${message.replace(/\\n/g, ' ')}${code ? ` (SQLSTATE ${code})` : ''}`, runner.pid);
      }
    };
    // Ready when a run of the probe workflow has finished.
    const probeRun = await startExecution({ memberId: member.id, workflowId: probe.workflow.id, workflowVersionId: probe.version!.id, trigger: { type: 'webhook', nodeId: 'start', data: {} } });
    for (const deadline = Date.now() + 90_000; ; await sleep(100)) {
      const { rows } = await client.query<{ status: string }>('SELECT status FROM executions WHERE id = $1::uuid', [probeRun.id]);
      if (rows[0].status === 'succeeded') break;
      if (Date.now() > deadline) throw new Error(`the runner did not run a probe execution within 90 s (it is ${rows[0].status})\n${runner.tail()}`);
    }
    lastBatchDelay = batchDelay;
    log(`  ${mode === 'main' ? 'runner/main.ts' : `bench/engine-runner.ts (the runner’s task list, completeJobBatchDelay ${batchDelay})`} pid ${runner.pid}, graphile floor pid ${floor.pid}, sink ${sink.url}`);

    const engine: Target = {
      name: 'engine',
      pid: () => runner.pid,
      async inflight() {
        checkRunner();
        const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM executions WHERE workflow_id = $1::uuid AND status IN ('queued', 'running', 'waiting')`, [workflow.id]);
        return rows[0].n;
      },
      start: (count) => startRuns({ memberId: member.id, workflowId: workflow.id, versionId: version!.id }, count),
      async diagnose() {
        const { rows: statuses } = await client.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM executions WHERE workflow_id = $1::uuid GROUP BY status`, [workflow.id]);
        const { rows: jobs } = await client.query<{ n: number; last_error: string | null; locked: number; future: number; attempts: number }>(
          `SELECT count(*)::int AS n, max(last_error) AS last_error, count(*) FILTER (WHERE locked_at IS NOT NULL)::int AS locked,
                  count(*) FILTER (WHERE run_at > now())::int AS future, max(attempts)::int AS attempts
             FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = 'execution.advance'`,
        );
        return (
          `: executions ${statuses.map((row) => `${row.status} ${row.n}`).join(', ')}; advance jobs pending ${jobs[0].n} (locked ${jobs[0].locked}, not due yet ${jobs[0].future}, ` +
          `most attempts ${jobs[0].attempts}), last error ${jobs[0].last_error?.slice(0, 300) ?? 'none'}; runner's last lines:\n${runner.tail().slice(-1500)}`
        );
      },
      async completed(since, until) {
        const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM executions WHERE workflow_id = $1::uuid AND finished_at >= $2 AND finished_at < $3`, [workflow.id, since, until]);
        return rows[0].n;
      },
    };
    // The floor's graphile schema exists once its worker has started (it migrates its database).
    if (!floorClientConnected) {
      await floorClient.connect();
      floorClientConnected = true;
    }
    const chainTaskId = async () => (await floorClient.query<{ id: number }>(`SELECT id FROM graphile_worker._private_tasks WHERE identifier = $1`, [chainTask])).rows[0]?.id ?? -1;
    let taskId = -1;
    const chainWindow = { from: 0, to: 0 };
    const graphileTarget: Target = {
      name: 'graphile',
      pid: () => floor.pid,
      async inflight() {
        if (taskId < 0) taskId = await chainTaskId();
        const { rows } = await floorClient.query<{ n: number }>(`SELECT count(*)::int AS n FROM graphile_worker._private_jobs WHERE task_id = $1`, [taskId]);
        return rows[0].n;
      },
      async start(count) {
        await floorClient.query('BEGIN');
        for (let index = 0; index < count; index += 1) {
          await floorClient.query(`SELECT graphile_worker.add_job($1::text, $2::json)`, [chainTask, JSON.stringify({ n: 1, t: Date.now() } satisfies ChainPayload)]);
        }
        await floorClient.query('COMMIT');
      },
      // Chains counted by the child, read when the window opens and when it closes.
      async windowStart() {
        chainWindow.from = await floor.chainsDone();
      },
      async windowEnd() {
        chainWindow.to = await floor.chainsDone();
      },
      async completed() {
        return chainWindow.to - chainWindow.from;
      },
    };

    await settleAsAnInstance([{ target: graphileTarget, client: floorClient }, { target: engine, client }], { inflight: settings.inflight, postmasterPid });
    // 1 + 2: throughput in interleaved rounds, then the step rows of the engine's runs.
    const slices: ThroughputSlice[] = [];
    const floorHops: number[] = [];
    for (let round = 0; round < settings.rounds; round += 1) {
      for (const target of [graphileTarget, engine]) {
        await floor.report(); // clears the floor's samples
        const slice = await feed(target, {
          inflight: settings.inflight,
          warmupMs: round === 0 ? 3_000 : 1_000,
          durationMs: (settings.seconds * 1000) / settings.rounds,
          postmasterPid,
          client: target === graphileTarget ? floorClient : client,
        });
        if (target === graphileTarget) floorHops.push(...(await floor.report()).hops);
        slices.push(slice);
        log(
          `  round ${round + 1}/${settings.rounds} ${slice.target.padEnd(8)} ${fixed(slice.perSecond, 1).padStart(7)} runs/s (${slice.completed} in ${fixed(slice.seconds, 1)} s; ` +
            `${fixed(slice.cpu.server / Math.max(1, slice.completed), 2)} ms worker CPU + ${fixed(slice.cpu.cluster / Math.max(1, slice.completed), 2)} ms PostgreSQL CPU per run; ` +
            `≈ ${fixed(slice.commits / Math.max(1, slice.started))} WAL flushes, ${fixed(slice.jobsAdded / Math.max(1, slice.started))} jobs added, ${fixed(slice.walBytes / Math.max(1, slice.started) / 1024)} KB WAL per run; others ${fixed(100 * othersShare(slice.cpu), 0)}%)`,
        );
      }
    }
    const saturated: Measured['saturated'] = { hops: [], perExecution: [], queueDelay: [], httpMs: [], lead: [], tail: [], statuses: new Map() };
    for (const window of slices.filter((slice) => slice.target === 'engine')) {
      const part = await stepOverheads(client, workflow.id, window.from, window.to);
      saturated.hops.push(...part.hops);
      saturated.perExecution.push(...part.perExecution);
      saturated.queueDelay.push(...part.queueDelay);
      saturated.httpMs.push(...part.httpMs);
      saturated.lead.push(...part.lead);
      saturated.tail.push(...part.tail);
      for (const [status, count] of part.statuses) saturated.statuses.set(status, (saturated.statuses.get(status) ?? 0) + count);
    }
    // 2, unqueued: one run at a time, then one chain at a time (the per-step target is judged here: a
    // saturated figure measures how many runs share the CPU, not what a step costs the engine).
    const alone: Measured['alone'] = { hops: [], perExecution: [], floorHops: [] };
    if (settings.aloneSeconds > 0) {
      await floor.report();
      await feed(graphileTarget, { inflight: 1, warmupMs: 500, durationMs: settings.aloneSeconds * 1000, postmasterPid, client: floorClient });
      alone.floorHops.push(...(await floor.report()).hops);
      const slice = await feed(engine, { inflight: 1, warmupMs: 500, durationMs: settings.aloneSeconds * 1000, postmasterPid, client });
      const part = await stepOverheads(client, workflow.id, slice.from, slice.to);
      alone.hops.push(...part.hops);
      alone.perExecution.push(...part.perExecution);
      log(`  one at a time: ${part.executions} engine runs, ${alone.floorHops.length} graphile hops in ${settings.aloneSeconds} s each`);
    }

    // Every run must have run its five steps and called the sink: otherwise this is not the workflow benched.
    const { rows: stepCounts } = await client.query<{ node_id: string; status: string; n: number }>(
      `SELECT s.node_id, s.status, count(*)::int AS n FROM execution_steps s JOIN executions e ON e.id = s.execution_id WHERE e.workflow_id = $1::uuid GROUP BY 1, 2 ORDER BY 1, 2`,
      [workflow.id],
    );
    const succeededSteps = new Map(stepCounts.filter((row) => row.status === 'succeeded').map((row) => [row.node_id, row.n]));
    const incomplete = benchNodeIds.filter((id) => (succeededSteps.get(id) ?? 0) === 0);
    if (incomplete.length || sink.requests() === 0) {
      log(`  WARNING: steps that never succeeded: ${incomplete.join(', ') || 'none'}; sink requests ${sink.requests()}; steps by node and status: ${stepCounts.map((row) => `${row.node_id} ${row.status} ${row.n}`).join(', ')}`);
      const { rows: sample } = await client.query<{ node_id: string; status: string; error: unknown; output: string | null }>(
        `SELECT s.node_id, s.status, s.error, s.output FROM execution_steps s JOIN executions e ON e.id = s.execution_id WHERE e.workflow_id = $1::uuid ORDER BY e.created_at DESC, s.seq LIMIT 5`,
        [workflow.id],
      );
      for (const row of sample) log(`    ${row.node_id} ${row.status} ${row.output ?? ''} ${row.error ? JSON.stringify(row.error).slice(0, 300) : ''}`);
    }
    log(`  engine runs in the windows by status: ${[...saturated.statuses].map(([status, count]) => `${status} ${count}`).join(', ') || 'none'}; sink requests so far ${sink.requests()} (${sink.duplicates()} repeated idempotency keys)`);

    // 3: webhook-to-first-step latency, open loop, and its floor; the step rows of those runs for 2.
    let webhook: Measured['webhook'] = null;
    if (process.env.BENCH_ENGINE_WEBHOOK !== '0') {
      log(`  production build: ${await ensureProductionBuild(root, log)}`);
      const port = await findFreePort();
      const web = await startServer({
        name: 'web',
        command: process.execPath,
        args: [...webNodeArgs, ...tsxArgs('server/http/main.ts')],
        cwd: root,
        // One proxy hop trusted: each request names its own client address, so the webhook's limit per address
        // (120 a minute) is not what is measured.
        env: childEnv({ HOST: '127.0.0.1', PORT: String(port), TRUST_PROXY: '1' }),
        readyTimeoutMs: 120_000,
      });
      children.add(web);
      try {
        const total = settings.webhookRate * settings.webhookSeconds;
        const intervalMs = 1000 / settings.webhookRate;
        const connections: HttpConnection[] = [];
        const sends: WebhookSend[] = [];
        const requestBytes = (index: number) => {
          const body = JSON.stringify({ index, amount: index % 100 });
          return Buffer.from(
            `POST /hooks/wf/${token} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json\r\n` +
              `X-Forwarded-For: 10.77.${(index >> 8) & 255}.${index & 255}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
            'latin1',
          );
        };
        // Warm-up: a few requests so the first measured one does not pay the route's first load.
        for (let index = 0; index < 5; index += 1) {
          const connection = new HttpConnection(port);
          const answer = await connection.send(requestBytes(60_000 + index), true);
          if (index === 0 && answer.status !== 202) log(`  the webhook answered ${answer.status} to the warm-up: ${answer.body?.toString('utf8').slice(0, 300)}`);
          connections.push(connection);
        }
        await sleep(1_000);
        const openLoop = async (fire: (index: number, scheduled: number) => Promise<void>) => {
          const start = Date.now() + 50;
          const pending: Promise<void>[] = [];
          for (let index = 0; index < total; index += 1) {
            const scheduled = start + index * intervalMs;
            const wait = scheduled - Date.now();
            if (wait > 0) await sleep(wait);
            pending.push(fire(index, Math.round(scheduled)));
          }
          await Promise.all(pending);
        };
        const webhookFrom = new Date();
        // CPU of every process a run goes through (web, runner, PostgreSQL), from the first request to the drain's end.
        const cpuOfRun = () => ({ web: processCpuMs(web.pid), runner: processCpuMs(runner.pid), pg: postmasterPid ? clusterCpuMs(postmasterPid) : Number.NaN });
        const cpuFrom = cpuOfRun();
        await openLoop(async (index, scheduled) => {
          let connection = connections.find((candidate) => !candidate.busy);
          if (!connection) {
            connection = new HttpConnection(port);
            connections.push(connection);
          }
          const result = await connection.send(requestBytes(index), true).catch(() => ({ status: 0, body: undefined }));
          let executionId: string | null;
          try {
            executionId = result.status === 202 ? (JSON.parse(result.body!.toString('utf8')) as { executionId: string }).executionId : null;
          } catch {
            executionId = null;
          }
          sends.push({ scheduled, answered: Date.now(), status: result.status, executionId });
        });
        const ids = sends.flatMap((send) => (send.executionId ? [send.executionId] : []));
        for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(200)) {
          checkRunner();
          const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM executions WHERE id = ANY($1::uuid[]) AND finished_at IS NULL`, [ids]);
          if (rows[0].n === 0) break;
        }
        const webhookTo = new Date();
        const cpuTo = cpuOfRun();
        const { rows: firstSteps } = await client.query<{ id: string; started_at: Date | null }>(
          `SELECT e.id, s.started_at FROM executions e LEFT JOIN execution_steps s ON s.execution_id = e.id AND s.node_id = e.trigger_node_id WHERE e.id = ANY($1::uuid[])`,
          [ids],
        );
        const startedById = new Map(firstSteps.map((row) => [row.id, row.started_at]));
        const { latencies, missing, slowest } = webhookLatencies(sends, startedById);
        const statuses = new Map<string, number>();
        for (const send of sends) statuses.set(String(send.status), (statuses.get(String(send.status)) ?? 0) + 1);
        for (const connection of connections) connection.close();
        if (settings.burstSeconds > 0) {
          const burstOptions = (firstIndex: number) => ({ port, requestBytes, firstIndex, client, workflowId: workflow.id, seconds: settings.burstSeconds, connections: 16, checkRunner, cpu: cpuOfRun });
          const bursts = await measureBursts({ ...burstOptions(total), count: settings.bursts });
          for (const line of burstsLines(bursts, slices)) log(line);
          const setSlots = async (maxConcurrency: number | null) => void (await db().workflow.update({ where: { id: workflow.id }, data: { maxConcurrency } }));
          if (settings.defaultSlotsBurst) for (const line of await defaultSlotsBurstLines({ ...burstOptions(bursts.at(-1)!.nextIndex), setSlots, slices })) log(line);
        }
        await web.stop();
        children.delete(web);

        // The floor: add_job at the same rate, the job's start − its scheduled time (measured in the floor child).
        await floor.report();
        const pool = new pg.Pool({ connectionString: floorDatabase.url, max: 4 });
        await openLoop(async (_index, scheduled) => {
          await pool.query(`SELECT graphile_worker.add_job($1::text, $2::json)`, [chainTask, JSON.stringify({ n: 1, t: scheduled, single: true } satisfies ChainPayload)]);
        });
        await pool.end();
        let pickups: number[] = [];
        for (const deadline = Date.now() + 30_000; Date.now() < deadline && pickups.length < total; ) {
          await sleep(200);
          pickups = pickups.concat((await floor.report()).pickups);
        }
        webhook = {
          latency: quantiles(latencies),
          http: quantiles(sends.map((send) => send.answered - send.scheduled)),
          floor: quantiles(pickups),
          statuses,
          missing,
          slowest,
          overhead: await stepOverheads(client, workflow.id, webhookFrom, webhookTo),
          cpuPerRun: {
            web: (cpuTo.web - cpuFrom.web) / Math.max(1, ids.length),
            runner: (cpuTo.runner - cpuFrom.runner) / Math.max(1, ids.length),
            pg: (cpuTo.pg - cpuFrom.pg) / Math.max(1, ids.length),
          },
        };
      } finally {
        await web.stop();
        children.delete(web);
      }
    }
    const runnerLines = runner.logged();
    await runner.stop();
    children.delete(runner);
    await floor.stop();
    children.delete(floor);
    return { slices, floorHops, saturated, alone, webhook, runnerLines };
  }

  try {
    const requested = process.env.BENCH_ENGINE_RUNNER === 'tasks' ? 'tasks' : 'main';
    let mode: RunnerMode = requested;
    let stalledNote: string | null = null;
    let measured: Measured;
    try {
      measured = await measure(mode);
    } catch (error) {
      if (!(error instanceof RunnerStalled)) throw error;
      stalledNote = error.message;
      log(`  ${mode === 'main' ? 'runner/main.ts' : 'bench/engine-runner.ts'} STOPPED TAKING JOBS: ${error.message}`);
      // Does the process end (so that `npm start` would start another), or stay alive doing nothing?
      const seenAt = Date.now();
      while (alive(error.pid) && Date.now() - seenAt < 20_000) await sleep(250);
      log(
        alive(error.pid)
          ? '  the runner process is still alive 20 s later without a worker pool: nothing would restart it'
          : `  the runner process exited ${fixed((Date.now() - seenAt) / 1000, 1)} s later`,
      );
      log('  measuring again with the runner’s task list and completion batching off (bench/engine-runner.ts)');
      for (const child of [...children]) await child.stop();
      children.clear();
      // What the stalled runner left in flight must not count in the next windows.
      await client.query(`UPDATE executions SET status = 'cancelled', finished_at = now() - interval '1 hour' WHERE workflow_id = $1::uuid AND status IN ('queued', 'running', 'waiting')`, [workflow.id]);
      mode = 'tasks';
      measured = await measure(mode, '-1');
    }
    report(measured, mode, stalledNote, requested);
  } finally {
    for (const child of [...children]) await child.stop();
    await sink.close();
    await observer.close();
    if (floorClientConnected) await floorClient.end();
    await floorDatabase.drop();
    await client.end();
    await disconnectDb();
  }

  function report(measured: Measured, mode: RunnerMode, stalledNote: string | null, requested: RunnerMode) {
    const { slices, saturated, webhook } = measured;
    const total = (name: string, pick: (slice: ThroughputSlice) => number) => slices.filter((slice) => slice.target === name).reduce((sum, slice) => sum + pick(slice), 0);
    const engineRate = total('engine', (slice) => slice.completed) / total('engine', (slice) => slice.seconds);
    const floorRate = total('graphile', (slice) => slice.completed) / total('graphile', (slice) => slice.seconds);
    const cpuPerRun = (name: string) => ({
      worker: total(name, (slice) => slice.cpu.server) / total(name, (slice) => slice.completed),
      pg: total(name, (slice) => slice.cpu.cluster) / total(name, (slice) => slice.completed),
    });
    const runnerLabel = mode === 'main' ? 'runner/main.ts' : `the runner’s task list, completeJobBatchDelay ${lastBatchDelay}`;
    log('');
    log(`workflow engine (${runnerLabel}), ${settings.inflight} runs in flight, ${settings.rounds} interleaved rounds of ${fixed(settings.seconds / settings.rounds, 1)} s per target:`);
    const perStarted = (name: string, pick: (slice: ThroughputSlice) => number) => fixed(total(name, pick) / total(name, (slice) => slice.started), 1);
    for (const line of table([
      ['', 'runs/s', 'worker CPU ms/run', 'PostgreSQL CPU ms/run', 'WAL flushes/run', 'jobs/run', 'WAL KB/run'],
      [
        'floor: graphile-worker, chains of 5 trivial jobs',
        fixed(floorRate),
        fixed(cpuPerRun('graphile').worker, 2),
        fixed(cpuPerRun('graphile').pg, 2),
        perStarted('graphile', (slice) => slice.commits),
        perStarted('graphile', (slice) => slice.jobsAdded),
        perStarted('graphile', (slice) => slice.walBytes / 1024),
      ],
      [
        'engine: the 5-node workflow',
        fixed(engineRate),
        fixed(cpuPerRun('engine').worker, 2),
        fixed(cpuPerRun('engine').pg, 2),
        perStarted('engine', (slice) => slice.commits),
        perStarted('engine', (slice) => slice.jobsAdded),
        perStarted('engine', (slice) => slice.walBytes / 1024),
      ],
      ['engine / floor', `${fixed(engineRate / floorRate, 2)}×`, '', '', '', '', ''],
    ]))
      log(`  ${line}`);
    const saturatedHops = quantiles(saturated.hops);
    const floorHops = quantiles(measured.floorHops);
    log('  per-step overhead (ms; engine: gap from the previous step’s end + the step’s own duration unless HTTP; floor: one job of a chain to the next):');
    const rows: string[][] = [['', 'samples', 'p50', 'p90', 'p99', 'max']];
    const row = (label: string, q: Quantiles) => [label, String(q.count), fixed(q.p50), fixed(q.p90), fixed(q.p99), fixed(q.max)];
    const aloneHops = quantiles(measured.alone.hops);
    const aloneFloor = quantiles(measured.alone.floorHops);
    if (aloneHops.count) {
      rows.push(row('floor: graphile hop, one chain at a time', aloneFloor));
      rows.push(row('engine step, one run at a time', aloneHops));
      rows.push(row('engine (run time − HTTP) / steps, one at a time', quantiles(measured.alone.perExecution)));
    }
    rows.push(row('floor: graphile hop, saturated', floorHops));
    rows.push(row('engine step, saturated', saturatedHops));
    rows.push(row('engine (run time − HTTP) / steps, saturated', quantiles(saturated.perExecution)));
    const paced = webhook ? quantiles(webhook.overhead.hops) : null;
    if (paced) rows.push(row(`engine step, webhook at ${settings.webhookRate}/s`, paced));
    for (const line of table(rows)) log(`    ${line}`);
    log(
      `  saturated: queued → running p50 ${fixed(quantiles(saturated.queueDelay).p50)} ms (runs wait for one of the workflow's slots); ` +
        `the HTTP step to the sink p50 ${fixed(quantiles(saturated.httpMs).p50)} ms; running → first step p50 ${fixed(quantiles(saturated.lead).p50)} ms; ` +
        `last step → finished p50 ${fixed(quantiles(saturated.tail).p50)} ms`,
    );
    if (webhook) {
      const paced = webhook.overhead;
      log(
        `  at ${settings.webhookRate}/s: queued → running p50 ${fixed(quantiles(paced.queueDelay).p50)} ms, running → first step p50 ${fixed(quantiles(paced.lead).p50)} ms, ` +
          `last step → finished p50 ${fixed(quantiles(paced.tail).p50)} ms, (run time − HTTP) / steps p50 ${fixed(quantiles(paced.perExecution).p50)} ms`,
      );
    }
    if (webhook) {
      log(`  webhook-to-first-step latency, open loop ${settings.webhookRate}/s for ${settings.webhookSeconds} s (from the scheduled send time; ms):`);
      for (const line of table([
        ['', 'samples', 'p50', 'p90', 'p99', 'max'],
        row('floor: add_job → the job starts', webhook.floor),
        row('engine: POST → the trigger step starts', webhook.latency),
        row('  of which the HTTP answer (202)', webhook.http),
      ]))
        log(`    ${line}`);
      log(`    answers: ${[...webhook.statuses].map(([status, count]) => `${status} × ${count}`).join(', ')}${webhook.missing ? `; ${webhook.missing} without a started trigger step` : ''}`);
      log(`    slowest (into the loop, the second of the minute): ${webhook.slowest}`);
      const { web, runner, pg: pgCpu } = webhook.cpuPerRun;
      log(
        `  CPU per run through the webhook, all processes: ${fixed(web + runner + pgCpu, 1)} ms (web ${fixed(web, 1)} + runner ${fixed(runner, 1)} + PostgreSQL ${fixed(pgCpu, 1)}; ` +
          `over the open loop and its drain; issue 25 §1 asks ≤ 10 ms)`,
      );
    }
    if (measured.runnerLines.lines) {
      log(`  the runner printed ${measured.runnerLines.lines} lines (LOG_LEVEL=warn), ${measured.runnerLines.distinct.length} distinct; first ones:`);
      for (const line of measured.runnerLines.distinct.slice(0, 3)) log(`    ${line.slice(0, 300)}`);
    }
    const verdict = (pass: boolean) => (pass ? 'PASS' : 'MISS');
    const ratio = engineRate / floorRate;
    if (stalledNote) {
      log(
        `  MISS  ${requested === 'main' ? 'runner/main.ts' : 'bench/engine-runner.ts'} kept taking jobs under load: it stopped (${stalledNote.slice(0, 200)}); ` +
          `the figures below are the task list's with batching off`,
      );
    }
    log(`  ${verdict(ratio >= targets.throughputRatio)}  engine runs/s ≥ ${targets.throughputRatio} × graphile chains/s: ${fixed(engineRate)} / ${fixed(floorRate)} = ${fixed(ratio, 2)}×`);
    const judged = aloneHops.count ? { q: aloneHops, floor: aloneFloor, how: 'one run at a time' } : { q: paced ?? saturatedHops, floor: floorHops, how: paced ? `at ${settings.webhookRate} runs/s` : 'saturated' };
    log(
      `  ${verdict(judged.q.p50 <= targets.stepOverheadP50Ms)}  per-step overhead p50 ≤ ${targets.stepOverheadP50Ms} ms: ${fixed(judged.q.p50)} ms ${judged.how} ` +
        `(floor, graphile's hop: ${fixed(judged.floor.p50)} ms = ${fixed(judged.q.p50 / judged.floor.p50, 2)}×; ${paced ? `at ${settings.webhookRate} runs/s ${fixed(paced.p50)} ms, ` : ''}saturated ${fixed(saturatedHops.p50)} ms)`,
    );
    if (webhook) {
      log(
        `  ${verdict(webhook.latency.p99 < targets.webhookP99Ms)}  webhook-to-first-step p99 < ${targets.webhookP99Ms} ms at ${settings.webhookRate}/s: p50 ${fixed(webhook.latency.p50)} ms, p99 ${fixed(webhook.latency.p99)} ms ` +
          `(floor add_job → start p50 ${fixed(webhook.floor.p50)} ms, p99 ${fixed(webhook.floor.p99)} ms: ${fixed(webhook.latency.p99 / webhook.floor.p99, 2)}×)`,
      );
    } else {
      log('  (webhook latency skipped: BENCH_ENGINE_WEBHOOK=0)');
    }
    if (missingTypes.length) log(`  NOTE: node types missing from the registry (${missingTypes.join(', ')}): these figures are not the real workflow's`);
  }

  // 4: the lists at 1,000,000 executions, with no worker running.
  if (process.env.BENCH_ENGINE_LISTS !== '0') {
    const { runEngineListsBench } = await import('./engine-lists');
    await runEngineListsBench({ databaseUrl, log });
  }
}

// Alone: `npx tsx bench/engine.ts` (embedded PostgreSQL, or BENCH_DATABASE_URL as in the main bench).
await runSectionAlone(import.meta.url, runEngineBench);
