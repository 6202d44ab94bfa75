/**
 * The database access of this process: one `pg` pool, used by the Prisma client (through the driver
 * adapter: Prisma 7 needs no native engine) and, for the few statements on the hottest path, directly.
 * Created on first use from DATABASE_URL.
 */
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../../generated/prisma/client';
import { databaseUrl } from '../config';

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

let sharedPool: pg.Pool | null = null;
let client: PrismaClient | null = null;

/** The process's connection pool. Use Prisma (`db()`) unless a statement is on a measured hot path. */
export function pool(): pg.Pool {
  sharedPool ??= new pg.Pool({ connectionString: databaseUrl(), max: poolSize() });
  return sharedPool;
}

export function db(): PrismaClient {
  client ??= new PrismaClient({ adapter: new PrismaPg(pool()) });
  return client;
}

function poolSize(): number {
  const value = Number(process.env.DATABASE_POOL_SIZE);
  return Number.isInteger(value) && value > 0 ? value : 10;
}

export async function disconnectDb(): Promise<void> {
  const closingClient = client;
  const closingPool = sharedPool;
  client = null;
  sharedPool = null;
  await closingClient?.$disconnect();
  await closingPool?.end();
}
