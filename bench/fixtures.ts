/**
 * Rows the benchmark needs, made through the real services: one active member and its API keys.
 * Runs in the parent process against `process.env.DATABASE_URL` (set by run.ts before any import
 * of the server's config is used).
 */
import { randomUUID } from 'node:crypto';
import { unusablePasswordHash } from '../server/core/auth/password';
import { db, disconnectDb } from '../server/core/db';
import { createKey } from '../server/domains/api-keys/service';

// The benchmark gives its one member hundreds of keys (each key has its own rate limit), above the
// instance's cap on live keys per member: lift the cap in this process before the config is read.
process.env.API_KEYS_MAX_PER_MEMBER ??= '1000000';

export interface BenchMember {
  id: string;
  email: string;
  name: string;
  role: 'member' | 'admin';
  createdAt: Date;
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
  const member: BenchMember = { id: created.id, email: created.email, name: created.name, role: created.role, createdAt: created.createdAt };
  const actor = { kind: 'session' as const, sessionId: 'bench', member };
  const secrets: string[] = new Array(keyCount);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < keyCount; index = next++) {
      const { secret } = await createKey(actor, { name: `bench key ${index + 1}`, scopes: ['tables:read'] }, null);
      secrets[index] = secret;
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, keyCount) }, worker));
  await disconnectDb();
  return { member, secrets };
}
