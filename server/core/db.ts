/**
 * The Prisma client of this process, created on first use from DATABASE_URL. Prisma 7 runs without
 * native engines here: queries go through the `pg` driver adapter.
 */
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client';
import { databaseUrl } from './config';

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

let client: PrismaClient | null = null;

export function db(): PrismaClient {
  if (!client) {
    client = new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl(), max: poolSize() }) });
  }
  return client;
}

function poolSize(): number {
  const value = Number(process.env.DATABASE_POOL_SIZE);
  return Number.isInteger(value) && value > 0 ? value : 10;
}

export async function disconnectDb(): Promise<void> {
  if (client) {
    const closing = client;
    client = null;
    await closing.$disconnect();
  }
}
