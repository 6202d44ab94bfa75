/**
 * The runner process: graphile-worker executing the tasks of runner/tasks and the crontab against
 * DATABASE_URL. Started by `npm start` (or `npm run runner`). Never imports Next.js, React or tRPC.
 *
 * Next to the worker, the mail supervisor (runner/mail/supervisor.ts) keeps this runner's share of the
 * mailboxes in sync (leases, IMAP IDLE watches, polling), and the engine sweeper re-queues executions
 * whose runner died (runner/engine/sweeper-loop.ts). Workflow expressions are evaluated on the
 * expression sandbox's worker threads (server/engine/expressions/sandbox), closed on the way out.
 *
 * SIGTERM/SIGINT: stop taking jobs, let running ones finish (graphile aborts them after 5 s), stop the
 * mail watchers and give their leases back, exit.
 */
import { run, type Runner } from 'graphile-worker';
import { config } from '../server/core/config';
import { housekeepingTaskNames } from '../server/core/jobs/housekeeping-jobs';
import { disconnectDb, keepConnectionsOpen, separatePool } from '../server/core/db';
import { loadEnvFile } from '../server/core/load-env-file';
import { log } from '../server/core/log';
import { leaseTimingFor } from '../server/mail/lease';
import { closePdfPool } from '../server/mail/pdf/pdf-text-pool';
import { setOAuthTokenSource } from '../server/mail/providers/token-source';
import { mailTokenSource } from '../server/domains/oauth';
import { composeEngine } from '../server/engine-adapters/compose';
import { closeExpressionSandbox, startExpressionSandbox } from '../server/engine/expressions/sandbox';
import { parsedCronItems } from './crontab';
import { graphileLogger } from './graphile-logger';
import { startRunnerHealthServer } from './health-server';
import { setMailSupervisor } from './mail/dispatch';
import { MailSupervisor } from './mail/supervisor';
import { startSweeperLoop } from './engine/sweeper-loop';
import { runnerIdentity } from './runner-identity';
import { startSendSweeperLoop } from './send/sweeper-loop';
import { syncStarterTemplates } from './templates/sync-starter';
import { taskList } from './tasks';
import { runnerPoolSize, runnerWorkerPreset } from './worker-preset';

/** After this, a stop that is still waiting on a job gives up; `npm start` kills us later still. */
const forcedExitMs = 12_000;

loadEnvFile();
// A service process: the connections it opened stay open through quiet spells (core/db/index.ts), graphile's too.
keepConnectionsOpen();
// The engine's capabilities and run-end hooks (server/engine-adapters/compose.ts), before any job runs.
composeEngine();

/** Set by SIGTERM/SIGINT: from then on the runner is no longer ready. */
let stopping = false;

// graphile-worker's own pool (job fetch, completion, LISTEN), made here so it keeps its connections as ours does.
// It has its error listeners, so graphile adds none of its own. Its commits (a job taken, a job done) do not wait
// for the WAL flush: a job is only a wake-up, the state lives in our tables (ARCHITECTURE, "Durable where the
// state is"), so a database crash that loses one runs a job again, which finds its work done.
const workerPool = separatePool(runnerPoolSize, 'job worker database connection lost', { commitsWaitForWal: false });

const runner: Runner = await run({
  pgPool: workerPool,
  taskList,
  parsedCronItems,
  logger: graphileLogger,
  // We stop the runner ourselves, so the database pool and the log are closed in order.
  noHandleSignals: true,
  preset: runnerWorkerPreset,
});
// OAuth mailboxes sync with tokens from the OAuth domain's store (refreshed and re-sealed there).
setOAuthTokenSource(mailTokenSource);
// One identity for the runner's heartbeat, leases and sends (a send's runner is judged alive by it).
const mail = new MailSupervisor({ owner: runnerIdentity(), ...leaseTimingFor(config().MAIL_LEASE_SECONDS) });
setMailSupervisor(mail);
await mail.start();
// Workflow expressions run on these threads (a thread takes a second or two to load: not on the first step).
startExpressionSandbox();
const sweeper = startSweeperLoop();
const sendSweeper = startSendSweeperLoop(runnerIdentity());
// The orchestrator's probes (RUNNER_HEALTH_PORT; none by default): ready while the job worker runs.
let workerRunning = true;
void runner.promise.finally(() => (workerRunning = false)).catch(() => {});
const { RUNNER_HEALTH_PORT, RUNNER_HEALTH_HOST } = config();
const health = RUNNER_HEALTH_PORT > 0 ? await startRunnerHealthServer({ port: RUNNER_HEALTH_PORT, host: RUNNER_HEALTH_HOST, workerRunning: () => workerRunning && !stopping }) : null;
if (health) log.info({ url: health.url }, 'runner health endpoint listening');
log.info({ owner: mail.owner }, 'runner ready');
// The starter templates this release ships, upserted by slug (enabled and install counts kept).
await syncStarterTemplates()
  .then((outcome) => log.info({ created: outcome.created.length, updated: outcome.updated.length }, 'starter templates synced'))
  .catch((error: unknown) => log.error({ err: error }, 'starter templates sync failed'));
// Once per start (the job key keeps one pending job however many runners start together): typed
// slots for tables written before them, secrets still sealed under a rotated-out key, and a support exchange (a no-op
// unless linked), so what a killed runner left in the outbox leaves now rather than at the crontab's next minute.
for (const name of [housekeepingTaskNames.backfillTableTypedSlots, housekeepingTaskNames.resealSecrets, housekeepingTaskNames.supportSyncInterval]) {
  await runner.addJob(name, {}, { jobKey: name, maxAttempts: 5 });
}

function stop(signal: NodeJS.Signals): void {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'runner stopping');
  sweeper.stop();
  sendSweeper.stop();
  setTimeout(() => {
    log.error('runner did not stop in time; exiting');
    process.exit(1);
  }, forcedExitMs).unref();
  void runner.stop(signal).catch((error: unknown) => log.error({ err: error }, 'runner stop failed'));
  void mail.stop().catch((error: unknown) => log.error({ err: error }, 'mail supervisor stop failed'));
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

try {
  await runner.promise;
} catch (error) {
  log.error({ err: error }, 'runner failed');
  process.exitCode = 1;
} finally {
  setMailSupervisor(null);
  await mail.stop().catch((error: unknown) => log.error({ err: error }, 'mail supervisor stop failed'));
  await closeExpressionSandbox().catch((error: unknown) => log.error({ err: error }, 'expression sandbox close failed'));
  await closePdfPool().catch((error: unknown) => log.error({ err: error }, 'PDF pool close failed'));
  await health?.close();
  await disconnectDb();
  await workerPool.end();
}
if (!stopping) {
  // The worker pool ended without being asked to: let the supervisor see a failure.
  process.exitCode ||= 1;
}
