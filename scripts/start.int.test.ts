/**
 * `npm start`'s supervisor, for real (issue 18, Evidence): scripts/start.ts runs its web and runner
 * children against this file's test database. The runner is SIGKILLed while runs are in flight and
 * while more arrive: the supervisor says so and starts it again, the web server keeps answering
 * /healthz meanwhile (same process: its uptime never goes back), and every run ends `succeeded`. Then
 * the web server is SIGKILLed and comes back too, and SIGTERM stops everything with exit code 0.
 *
 * The supervisor runs in its `--dev` mode (the same supervision, children and restarts), so the test
 * needs no production build (`next build` takes minutes and gigabytes on these machines; the end-to-end
 * suite runs `npm start` with it). Its web child serves no pages (WEB_API_ONLY=1: the same process,
 * routes and /healthz, without loading Next.js, whose development compiler cost this file 11 s of CPU
 * and nothing it checks).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { db } from '../server/core/db';
import type { GraphInput } from '../server/engine/contract/graph';
import { startExecution } from '../server/engine/run/start';
import { createMember } from '../server/testing/factories';
import { useTestDatabase } from '../server/testing/test-database';
import { createWorkflow } from '../server/testing/workflow-factories';

const databaseUrl = await useTestDatabase();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let supervisor: ChildProcess | null = null;
let dataDir: string | null = null;
afterAll(async () => {
  if (supervisor && supervisor.exitCode === null && supervisor.signalCode === null) {
    const exited = new Promise((resolve) => supervisor!.once('exit', resolve));
    supervisor.kill('SIGTERM');
    await Promise.race([exited, sleep(30_000)]);
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The supervisor's output, line by line, and a way to wait for a line. */
function watchLines(child: ChildProcess) {
  const lines: string[] = [];
  const waiters = new Set<{ pattern: RegExp; from: number; resolve: (line: string) => void }>();
  const check = () => {
    for (const waiter of waiters) {
      const line = lines.slice(waiter.from).find((candidate) => waiter.pattern.test(candidate));
      if (line) {
        waiters.delete(waiter);
        waiter.resolve(line);
      }
    }
  };
  for (const stream of [child.stdout!, child.stderr!]) {
    readline.createInterface({ input: stream }).on('line', (line) => {
      lines.push(line);
      check();
    });
  }
  return {
    lines,
    /** The first line matching `pattern` printed after line `from` (default: any). */
    next(pattern: RegExp, timeoutMs: number, from = 0): Promise<string> {
      return new Promise((resolve, reject) => {
        const waiter = { pattern, from, resolve };
        waiters.add(waiter);
        check();
        setTimeout(() => {
          if (!waiters.delete(waiter)) return;
          reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms; last lines:\n${lines.slice(-30).join('\n')}`));
        }, timeoutMs);
      });
    },
  };
}

const pidOf = (line: string) => Number(/pid (\d+)/.exec(line)![1]);

/** Polls /healthz until stopped: every answer's status and the web process's uptime. */
function pollHealth(baseUrl: string) {
  const answers: { status: number; uptime: number }[] = [];
  let polling = true;
  const done = (async () => {
    while (polling) {
      try {
        const response = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(10_000) });
        const body = (await response.json()) as { uptimeSeconds: number };
        answers.push({ status: response.status, uptime: body.uptimeSeconds });
      } catch {
        answers.push({ status: 0, uptime: -1 });
      }
      await sleep(200);
    }
  })();
  return {
    answers,
    async stop() {
      polling = false;
      await done;
    },
  };
}

const graph: GraphInput = {
  nodes: [
    { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} },
    { id: 'tag', type: 'data.set', version: 1, name: 'Tag', params: { fields: [{ name: 'tagged', value: true }], keepInput: true } },
    { id: 'pause', type: 'flow.wait', version: 1, name: 'Pause', params: { mode: 'duration', amount: 2, unit: 'seconds' } },
    { id: 'shape', type: 'data.set', version: 1, name: 'Shape', params: { fields: [{ name: 'index', value: '{{ trigger.index }}' }], keepInput: false } },
  ],
  connections: [
    { from: 'start', output: 'main', to: 'tag' },
    { from: 'tag', output: 'main', to: 'pause' },
    { from: 'pause', output: 'main', to: 'shape' },
  ],
};

it('npm start restarts a crashed runner (web keeps answering, no run is lost) and a crashed web server, and stops everything on SIGTERM', async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'mailflow-start-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // The children run as `npm start` runs them, not as vitest's (no VITEST flags).
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('VITEST')) delete env[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts', '--dev'], {
    cwd: root,
    env: { ...env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', ADMIN_EMAIL: 'admin@example.com', ADMIN_PASSWORD: 'a long admin password', LOG_LEVEL: 'warn', WEB_API_ONLY: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  supervisor = child;
  const output = watchLines(child);
  const runnerPid = pidOf(await output.next(/^runner started \(pid \d+\)/, 120_000));
  const webPid = pidOf(await output.next(/^web started \(pid \d+\)/, 120_000));
  await output.next(/mailflow is ready/, 180_000);

  const member = await createMember();
  const { workflow, version } = await createWorkflow(member, { graph });
  const startRun = (index: number) => startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'webhook', nodeId: 'start', data: { index } } });
  const runs: string[] = [];
  for (let index = 0; index < 10; index += 1) runs.push((await startRun(index)).id);
  // The runner has them in hand: some are waiting on their pause already.
  for (let tries = 0; tries < 600 && (await db().execution.count({ where: { workflowId: workflow.id, status: 'waiting' } })) === 0; tries += 1) await sleep(100);

  const health = pollHealth(baseUrl);
  const beforeKill = output.lines.length;
  process.kill(runnerPid, 'SIGKILL');
  const restartLine = await output.next(/^runner exited unexpectedly/, 30_000, beforeKill);
  // Runs keep arriving while no runner is up.
  for (let index = 10; index < 20; index += 1) runs.push((await startRun(index)).id);
  const newRunnerPid = pidOf(await output.next(/^runner started \(pid \d+\)/, 60_000, beforeKill));
  for (let tries = 0; tries < 1_200; tries += 1) {
    if ((await db().execution.count({ where: { id: { in: runs }, status: { in: ['succeeded', 'failed', 'cancelled'] } } })) === runs.length) break;
    await sleep(100);
  }
  await health.stop();
  const statuses = await db().execution.groupBy({ by: ['status'], where: { id: { in: runs } }, _count: true });
  console.log(`supervisor: "${restartLine}"; runner pid ${runnerPid} → ${newRunnerPid}; /healthz answers during the runner's restart: ${health.answers.length}; runs: ${JSON.stringify(statuses)}`);

  const stuck = await db().execution.findMany({ where: { id: { in: runs }, status: { notIn: ['succeeded', 'failed', 'cancelled'] } }, include: { steps: true } });
  if (stuck.length > 0) {
    const jobs = await db().$queryRaw<unknown[]>`SELECT key, attempts, last_error, run_at, locked_at, locked_by FROM graphile_worker.jobs WHERE key = ANY(${stuck.map((run) => `execution:${run.id}`)})`;
    console.log(`runs not ended: ${JSON.stringify(stuck, (_, value) => (typeof value === 'bigint' ? String(value) : value)).slice(0, 4_000)}; their jobs: ${JSON.stringify(jobs)}; now ${new Date().toISOString()}`);
  }
  expect(restartLine).toMatch(/^runner exited unexpectedly \(signal SIGKILL\) after [\d.]+ s; restarting it in 1 s \(restart 1\)$/);
  expect(newRunnerPid).not.toBe(runnerPid);
  expect(statuses).toEqual([{ status: 'succeeded', _count: runs.length }]);
  expect(health.answers.length).toBeGreaterThan(0);
  expect(health.answers.filter((answer) => answer.status !== 200)).toEqual([]);
  // One web process all along: its uptime never went back.
  const uptimes = health.answers.map((answer) => answer.uptime);
  expect(uptimes).toEqual([...uptimes].sort((a, b) => a - b));
  expect(output.lines.filter((line) => /^web started/.test(line))).toHaveLength(1);

  // The web server comes back too.
  const beforeWebKill = output.lines.length;
  process.kill(webPid, 'SIGKILL');
  await output.next(/^web exited unexpectedly \(signal SIGKILL\)/, 30_000, beforeWebKill);
  const newWebPid = pidOf(await output.next(/^web started \(pid \d+\)/, 60_000, beforeWebKill));
  expect(newWebPid).not.toBe(webPid);
  let answered = 0;
  for (let tries = 0; tries < 600 && answered !== 200; tries += 1) {
    answered = await fetch(`${baseUrl}/healthz`).then((response) => response.status, () => 0);
    if (answered !== 200) await sleep(200);
  }
  expect(answered).toBe(200);

  // SIGTERM: everything stops, exit code 0, no child left.
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  for (const pid of [newRunnerPid, newWebPid]) expect(() => process.kill(pid, 0)).toThrow();
}, 600_000);
