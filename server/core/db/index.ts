/**
 * The database access of this process: one `pg` pool, used by the Prisma client (through the driver
 * adapter: Prisma 7 needs no native engine) and, for the few statements on the hottest path, directly.
 * Created on first use from DATABASE_URL.
 *
 * The pool is bounded in time as well as in size: a request waits at most DATABASE_ACQUIRE_TIMEOUT_MS
 * (default 10 s) for a connection, then fails with DatabaseBusyError (busy.ts), answered 503
 * `internal.busy`, instead of hanging while every connection is held.
 *
 * A service process (web, runner) keeps the connections it opened (`keepConnectionsOpen`): pg's pool closes one
 * idle for 10 s, and opening it again costs both sides a SCRAM exchange, a server process and its catalog caches,
 * then a PREPARE of each hot statement. A burst after a quiet spell paid that for every connection at once: the
 * first seconds of webhooks at 50/s answered in 400-700 ms (bench/README.md, "A quiet spell closed the pools").
 * Other processes (tests, scripts, benches) let idle connections go, as before.
 */
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../../generated/prisma/client';
import { databaseUrl } from '../config';
import { log } from '../log';
import { busyOr } from './busy';
import { statementName } from './prepared';

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

let sharedPool: pg.Pool | null = null;
let client: PrismaClient | null = null;
let keepOpen = false;

/** pg's default: an idle connection is closed after this long, unless the process keeps them (0: never). */
const idleTimeoutMillis = () => (keepOpen ? 0 : 10_000);

/**
 * From now on this process keeps every connection it opens, up to the pool's size, for its whole life (a service
 * process: its peak is the pool's size anyway, and a burst must not find them closed). Call before the first query.
 */
export function keepConnectionsOpen(): void {
  keepOpen = true;
  if (sharedPool) sharedPool.options.idleTimeoutMillis = idleTimeoutMillis();
}

/**
 * The idle rule and the connection of every pool of this process, JIT compilation off from each connection's start.
 * Every statement here is a short one, and where the planner overestimates (the sync's thread look-up probes a GIN
 * index once per Message-ID, each probe estimated at 50 rows where it finds none) its cost passed the JIT thresholds:
 * a server built with LLVM (Debian's packages, the official Docker image) compiled and optimised it for 300 ms to
 * run it in 10, once for every batch of a sync (bench/README, "JIT"). Off, as the tables' reads already had it.
 */
function poolOptions(max: number): pg.PoolConfig {
  return withStartupSetting({ connectionString: databaseUrl(), max, idleTimeoutMillis: idleTimeoutMillis() }, 'jit=off');
}

/**
 * A lost connection (server restart, a session timeout) is dropped by pg; without these listeners its 'error'
 * event would end the process. Only the code and message: the error holds the client, whose parameters hold the
 * password.
 */
function logConnectionErrors(target: pg.Pool, message: string): void {
  const warn = (error: Error & { code?: string }) => log.warn({ code: error.code, message: error.message }, message);
  target.on('error', warn);
  target.on('connect', (client) => client.on('error', warn));
}

/**
 * Pool options whose connections start with a server setting: sent in the startup packet's `options` (as libpq's
 * PGOPTIONS), so PostgreSQL applies it before the first statement, without a statement of its own. A SET sent from
 * the pool's 'connect' event instead raced the first query of whoever took the connection (pg queued it behind the
 * SET and warned that a client running two queries at once stops working in pg 9). Options the database URL already
 * gives are kept: pg reads the URL's over the pool's, so the setting is added to them there.
 */
export function withStartupSetting(config: pg.PoolConfig, setting: string): pg.PoolConfig {
  const option = `-c ${setting}`;
  let url: URL | null = null;
  try {
    url = new URL(config.connectionString ?? '');
  } catch {
    // Not a URL pg-connection-string and WHATWG read alike (a socket path form): the option goes beside it.
  }
  const given = url?.searchParams.get('options');
  if (!url || given === null || given === undefined) return { ...config, options: config.options ? `${config.options} ${option}` : option };
  url.searchParams.set('options', `${given} ${option}`);
  return { ...config, connectionString: url.toString() };
}

/**
 * Another pool of this process (graphile-worker's in the runner), under the same rules as `pool()`.
 *
 * `commitsWaitForWal: false`: its connections commit without waiting for the WAL flush (`synchronous_commit` off
 * from their start). For a pool whose writes a database crash may lose without losing anything else: any later
 * durable commit flushes them first, and a crash of the process itself loses nothing.
 */
export function separatePool(max: number, lostMessage: string, options: { commitsWaitForWal?: boolean } = {}): pg.Pool {
  const config = options.commitsWaitForWal === false ? withStartupSetting(poolOptions(max), 'synchronous_commit=off') : poolOptions(max);
  const made = new pg.Pool(config);
  logConnectionErrors(made, lostMessage);
  return made;
}

/** pg's pool, raising DatabaseBusyError when no connection comes within the acquire timeout (also for `query`, which connects through here). */
class TimedPool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): void;
  override connect(callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): Promise<pg.PoolClient> | void {
    if (!callback) {
      return super.connect().catch((error: unknown) => {
        throw busyOr(error);
      });
    }
    super.connect((error, client, done) => callback(error ? (busyOr(error) as Error) : error, client, done));
  }
}

/** The process's connection pool. Use Prisma (`db()`) unless a statement is on a measured hot path. */
export function pool(): pg.Pool {
  if (!sharedPool) {
    sharedPool = new TimedPool({ ...poolOptions(poolSize()), connectionTimeoutMillis: acquireTimeoutMs() });
    logConnectionErrors(sharedPool, 'database connection lost');
  }
  return sharedPool;
}

export function db(): PrismaClient {
  // Statements registered as prepared (prepared.ts) are sent named through Prisma too; every other one unnamed.
  client ??= new PrismaClient({ adapter: new PrismaPg(pool(), { statementNameGenerator: (query) => statementName(query.sql) as string }) });
  return client;
}

/** Connections per process (DATABASE_POOL_SIZE, default 10). */
export function poolSize(): number {
  const value = Number(process.env.DATABASE_POOL_SIZE);
  return Number.isInteger(value) && value > 0 ? value : 10;
}

/** Longest wait for a pool connection, in ms (DATABASE_ACQUIRE_TIMEOUT_MS, default 10 s, as Prisma's transaction `maxWait`). */
function acquireTimeoutMs(): number {
  const value = Number(process.env.DATABASE_ACQUIRE_TIMEOUT_MS);
  return Number.isInteger(value) && value > 0 ? value : 10_000;
}

export async function disconnectDb(): Promise<void> {
  const closingClient = client;
  const closingPool = sharedPool;
  client = null;
  sharedPool = null;
  await closingClient?.$disconnect();
  await closingPool?.end();
}
