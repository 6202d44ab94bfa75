/**
 * Test data made through the real services (never by faking our own code): members, sessions and keys.
 */
import { randomUUID } from 'node:crypto';
import { hashPassword } from '../core/auth/password';
import type { Scope } from '../core/auth/scopes';
import { db } from '../core/db';
import { createKey } from '../domains/api-keys/service';
import { openSession } from '../domains/auth/sessions';

export interface TestMember {
  id: string;
  email: string;
  name: string;
  role: 'member' | 'admin';
  password: string;
  /** `session=<token>`, ready for a Cookie header. */
  cookie: string;
}

let passwordHashCache: Promise<string> | null = null;
export const testPassword = 'correct horse battery';

export async function createMember(options: { role?: 'member' | 'admin'; email?: string; name?: string; status?: 'active' | 'suspended' } = {}): Promise<TestMember> {
  passwordHashCache ??= hashPassword(testPassword);
  const email = options.email ?? `m-${randomUUID().slice(0, 8)}@example.test`;
  const member = await db().member.create({
    data: {
      email,
      name: options.name ?? 'Test Member',
      role: options.role ?? 'member',
      status: options.status ?? 'active',
      passwordHash: await passwordHashCache,
    },
  });
  const { cookie } = await openSession(member.id, { ip: '127.0.0.1', userAgent: 'vitest' });
  return { id: member.id, email, name: member.name, role: member.role, password: testPassword, cookie: cookie.split(';')[0] };
}

export async function createApiKeyFor(member: TestMember, scopes: Scope[], options: { expiresInDays?: number } = {}) {
  const actor = {
    kind: 'session' as const,
    sessionId: 'factory',
    member: { id: member.id, email: member.email, name: member.name, role: member.role, createdAt: new Date() },
  };
  const { key, secret } = await createKey(actor, { name: 'test key', scopes, expiresInDays: options.expiresInDays }, null);
  return { key, secret };
}
