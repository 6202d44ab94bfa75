/**
 * Accepting an invitation is public and carries a password to hash: its cost to an anonymous caller
 * must stay bounded. Hashing is counted through a spy over the real password module.
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { hashPassword } from '../../core/auth/password';
import { clientIpHeader } from '../../core/http/client-headers';
import { handleTrpcRequest } from '../../http/trpc-handler';
import { createMember, type TestMember } from '../../testing/factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';

vi.mock(import('../../core/auth/password'), async (importOriginal) => {
  const actual = await importOriginal();
  return { ...actual, hashPassword: vi.fn(actual.hashPassword) };
});

await useTestDatabase();

let admin: TestMember;
beforeAll(async () => {
  admin = await createMember({ role: 'admin' });
});

beforeEach(() => {
  vi.mocked(hashPassword).mockClear();
});

const acceptBody = (token: string) => ({ token, name: 'Flood', password: 'long-enough-password' });

describe('hardening 5: invitation accept checks the token before hashing, and is rate-limited per IP', () => {
  it('a flood of bad tokens does no hashing and is cut off with 429 auth.too_many_attempts and Retry-After', async () => {
    const statuses: number[] = [];
    let limited: { body: { error: { code: string } }; headers: Headers } | null = null;
    for (let attempt = 0; attempt < 14; attempt += 1) {
      const response = await call('POST', '/api/v1/auth/invitations/accept', { body: acceptBody(`bad-token-${attempt}`), ip: '198.51.100.5' });
      statuses.push(response.status);
      if (response.status === 429) limited = response;
    }
    expect(statuses).toEqual([...Array<number>(10).fill(404), ...Array<number>(4).fill(429)]);
    expect(limited!.body.error.code).toBe('auth.too_many_attempts');
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(hashPassword).not.toHaveBeenCalled();
  });

  it('a tRPC batch of accepts counts every call against the limit and hashes nothing', async () => {
    const calls = 12;
    const response = await handleTrpcRequest(
      new Request(`http://localhost/api/trpc/${Array<string>(calls).fill('auth.acceptInvitation').join(',')}?batch=1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [clientIpHeader]: '198.51.100.6' },
        body: JSON.stringify(Object.fromEntries(Array.from({ length: calls }, (_, index) => [String(index), acceptBody(`batch-${index}`)]))),
      }),
    );
    const results = (await response.json()) as { error: { data: { appError: { code: string } } } }[];
    const codes = results.map((result) => result.error.data.appError.code);
    expect(codes.filter((code) => code === 'request.not_found')).toHaveLength(10);
    expect(codes.filter((code) => code === 'auth.too_many_attempts')).toHaveLength(2);
    expect(hashPassword).not.toHaveBeenCalled();
  });

  it('counts an IPv6 client per /64', async () => {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      await call('POST', '/api/v1/auth/invitations/accept', { body: acceptBody('nope'), ip: `2001:db8:5:5::${attempt + 1}` });
    }
    const response = await call('POST', '/api/v1/auth/invitations/accept', { body: acceptBody('nope'), ip: '2001:db8:5:5:abcd::1' });
    expect(response.status).toBe(429);
  });

  it('hashes once for a usable token, from a client within its limit', async () => {
    const { token } = (await call('POST', '/api/v1/admin/members/invitations', { cookie: admin.cookie, body: { email: 'usable@example.test' } })).body;
    const response = await call('POST', '/api/v1/auth/invitations/accept', { body: acceptBody(token), ip: '198.51.100.7' });
    expect(response.status).toBe(201);
    expect(hashPassword).toHaveBeenCalledTimes(1);
  });
});
