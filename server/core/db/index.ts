/**
 * The database access of this process: one `pg` pool, used by the Prisma client (through the driver
 * adapter: Prisma 7 needs no native engine) and, for the few statements on the hottest path, directly.
 * Created on first use from DATABASE_URL.
 *
 * The pool is bounded in time as well as in size: a request waits at most DATABASE_ACQUIRE_TIMEOUT_MS
 * (default 10 s) for a connection, then fails with DatabaseBusyError (busy.ts), answered 503
 * `internal.busy`, instead of hanging while every connection is held.
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
    sharedPool = new TimedPool({ connectionString: databaseUrl(), max: poolSize(), connectionTimeoutMillis: acquireTimeoutMs() });
    // A connection the server ends (restart, a session timeout) is dropped by the pool; without a
    // listener the pool's 'error' event would end the process. Only the message: the error holds
    // the client, whose parameters hold the password.
    sharedPool.on('error', (error: Error & { code?: string }) => log.warn({ code: error.code, message: error.message }, 'database connection lost'));
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
