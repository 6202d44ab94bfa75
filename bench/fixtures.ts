/**
 * Rows the benchmark needs, made through the real services: one active member and its API keys.
 * Runs in the parent process against `process.env.DATABASE_URL` (set by run.ts before any import
 * of the server's config is used).
 */
import { randomUUID } from 'node:crypto';
import { unusablePasswordHash } from '../server/core/auth/password';
import { db, disconnectDb } from '../server/core/db';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../server/generated/prisma/client';
import { createKey } from '../server/domains/api-keys/service';

export interface BenchMember {
  id: string;
  email: string;
  name: string;
  role: 'member' | 'admin';
}

export interface Fixtures {
  member: BenchMember;
  /** Clear secrets `mk_...`, in creation order. */
  secrets: string[];
}

export async function createFixtures(keyCount: number, parallel = 8): Promise<Fixtures> {
  const created = await db().member.create({
    data: {
      email: `bench-${randomUUID().slice(0, 8)}@example.test`,
      name: 'Bench Member',
      role: 'member',
      status: 'active',
      passwordHash: unusablePasswordHash,
    },
  });
  const member: BenchMember = { id: created.id, email: created.email, name: created.name, role: created.role };
  const actor = { kind: 'session' as const, sessionId: 'bench', member };
  const secrets: string[] = new Array(keyCount);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < keyCount; index = next++) {
      const { secret } = await createKey(actor, { name: `bench key ${index + 1}`, scopes: ['read'] }, null);
      secrets[index] = secret;
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, keyCount) }, worker));
  await disconnectDb();
  return { member, secrets };
}

export interface CapturedQuery {
  sql: string;
  /** Parameters as Prisma sent them, with the member id replaced by the placeholder `$memberId`. */
  params: unknown[];
}

/**
 * The SQL Prisma emits for `currentMember`'s `member.findUnique({ where: { id } })`, captured from
 * Prisma's own query log, so the floor server runs the very statement the app runs.
 */
export async function captureMemberLookupSql(url: string, memberId: string): Promise<CapturedQuery> {
  const client = new PrismaClient({
    adapter: new PrismaPg({ connectionString: url, max: 1 }),
    log: [{ emit: 'event', level: 'query' }],
  });
  const seen: { query: string; params: string }[] = [];
  client.$on('query', (event) => seen.push({ query: event.query, params: event.params }));
  try {
    await client.member.findUnique({ where: { id: memberId } });
  } finally {
    await client.$disconnect();
  }
  const lookup = seen.find((event) => /\bFROM\b.*"members"/is.test(event.query));
  if (!lookup || seen.length !== 1) {
    throw new Error(`expected one members query from Prisma, saw ${seen.length}: ${seen.map((event) => event.query).join(' | ')}`);
  }
  const params = (JSON.parse(lookup.params) as unknown[]).map((value) => (value === memberId ? '$memberId' : value));
  if (!params.includes('$memberId')) throw new Error(`Prisma's member query does not take the id as a parameter: ${lookup.params}`);
  return { sql: lookup.query, params };
}
