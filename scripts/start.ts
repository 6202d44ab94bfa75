/**
 * npm start (production) and npm run dev (`--dev`): everything a single-machine instance needs.
 *
 *   0. the instance encryption key: ENCRYPTION_KEY, or <DATA_DIR>/encryption-key (generated once);
 *   1. the database: DATABASE_URL, or the embedded PostgreSQL in <DATA_DIR>/postgres;
 *   2. pending migrations;
 *   3. the first administrator, when there is no member yet (its generated password shown once);
 *   4. a current production build (`next build` when missing or stale; not with --dev);
 *   5. the web server and the runner as child processes, until Ctrl-C / SIGTERM.
 *
 * Shutdown order: web and runner first (SIGTERM, SIGKILL after a grace period), the database last.
 * A web or runner child that dies on its own is started again with backoff and the restart is logged
 * (scripts/lib/keep-alive.ts); only one that keeps crashing at start makes us stop everything and
 * exit non-zero.
 */
import path from 'node:path';
import { config } from '../server/core/config';
import { loadEnvFile } from '../server/core/load-env-file';
import { openLocalDatabase, type LocalDatabase } from '../server/core/local-database';
import { applyMigrations } from '../server/core/migrations/apply-migrations';
import { buildStaleness, nextBuildArgs, saveFingerprint } from './lib/build-fingerprint';
import { ensureInstanceKey } from './lib/instance-key';
import { keepAlive, type ChildExit, type KeepAlive } from './lib/keep-alive';
import { Supervisor, type ChildSpec } from './lib/supervisor';

const dev = process.argv.includes('--dev');
const root = process.cwd();
/** The runner gives up on a running job after 12 s; the web server closes sooner. */
const childGraceMs = 15_000;

function say(message: string): void {
  process.stdout.write(`${message}\n`);
}

loadEnvFile();

let database: LocalDatabase | null = null;
let stopping: Promise<never> | null = null;
const supervisor = new Supervisor();
const kept: KeepAlive[] = [];

function shutdown(exitCode: number, reason: string): Promise<never> {
  stopping ??= (async () => {
    say(reason);
    for (const keeper of kept) keeper.stop();
    await supervisor.stopAll(childGraceMs);
    if (database) {
      await database.stop();
      if (database.embedded) say('PostgreSQL stopped');
    }
    process.exit(exitCode);
  })();
  return stopping;
}

function onGaveUp({ name }: ChildExit): void {
  void shutdown(1, `${name} keeps crashing at start; stopping everything`);
}

/** A long-running child, started again whenever it dies on its own (until it keeps crashing at start). */
function keep(spec: ChildSpec): void {
  kept.push(
    keepAlive({
      name: spec.name,
      launch: () => {
        const incarnation = supervisor.start(spec);
        say(`${spec.name} started (pid ${incarnation.pid ?? 'none'})`);
        return incarnation;
      },
      log: say,
      onGiveUp: onGaveUp,
    }),
  );
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  // npm and tsx relay the terminal's Ctrl-C too, so several copies of a signal arrive: the first
  // one starts the shutdown and the rest are ignored (the grace timeouts bound its duration).
  process.on(signal, () => void shutdown(0, `${signal} received; stopping`));
}

/** Runs `step` unless a shutdown has begun; afterwards, waits for that shutdown instead. */
async function step<T>(run: () => Promise<T>): Promise<T> {
  if (stopping) return stopping;
  const result = await run();
  if (stopping) return stopping;
  return result;
}

function childEnv(databaseUrl: string): NodeJS.ProcessEnv {
  return { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: dev ? 'development' : 'production' };
}

function tsxChild(name: string, entry: string, databaseUrl: string, onLine?: (line: string) => void) {
  // One Node process with tsx's loader (the tsx CLI would add a wrapper process between us and it).
  return { name, command: process.execPath, args: ['--import', 'tsx', entry], env: childEnv(databaseUrl), cwd: root, onLine };
}

async function ensureBuild(databaseUrl: string): Promise<void> {
  const { fingerprint, reason } = await buildStaleness(root);
  if (!reason) return;
  say(`building the web application (${reason}); this takes a minute`);
  const code = await supervisor.run({
    name: 'build',
    command: process.execPath,
    args: nextBuildArgs(),
    env: { ...childEnv(databaseUrl), NODE_ENV: 'production' },
    cwd: root,
  });
  if (stopping) return;
  if (code !== 0) await shutdown(1, 'next build failed');
  await saveFingerprint(root, fingerprint);
}

/** The web server prints `ready on <url>` once it listens. */
function readyWatcher(): { onLine: (line: string) => void } {
  let announced = false;
  return {
    onLine(line) {
      const match = /ready on (https?:\/\/\S+)/i.exec(line);
      if (match && !announced) {
        announced = true;
        say(`\nmailflow is ready: ${match[1]}${dev ? ' (development mode)' : ''}\n`);
      }
    },
  };
}

async function main(): Promise<void> {
  const instanceKey = await step(() => ensureInstanceKey(config().DATA_DIR, process.env));
  if (instanceKey.generated) say(`generated the instance encryption key in ${instanceKey.file} (back it up with the database)`);
  database = await step(() => openLocalDatabase(say));
  const databaseUrl = database.url;

  const { applied } = await step(() => applyMigrations(databaseUrl));
  if (applied.length > 0) say(`applied migrations: ${applied.join(', ')}`);

  // Imported after DATABASE_URL is known: the Prisma client reads it on first use.
  process.env.DATABASE_URL = databaseUrl;
  const { ensureFirstAdmin } = await import('../server/domains/members/bootstrap-admin');
  const admin = await step(() => ensureFirstAdmin(process.env));
  const { disconnectDb } = await import('../server/core/db');
  await disconnectDb();
  if (admin.created) {
    say(`\nfirst administrator created: ${admin.email}`);
    say(
      admin.generatedPassword
        ? `password: ${admin.generatedPassword}\n(shown only this once: sign in and change it)\n`
        : 'password: the value of ADMIN_PASSWORD\n',
    );
  }

  if (!dev) await step(() => ensureBuild(databaseUrl));

  await step(async () => {
    keep(tsxChild('web', path.join('server', 'http', 'main.ts'), databaseUrl, readyWatcher().onLine));
    keep(tsxChild('runner', path.join('runner', 'main.ts'), databaseUrl));
  });
  const { HOST, PORT } = config();
  say(`starting the web server on ${HOST}:${PORT} and the runner (Ctrl-C stops everything)`);
}

main().catch((error: unknown) => {
  void shutdown(1, `startup failed: ${error instanceof Error ? error.message : String(error)}`);
});
