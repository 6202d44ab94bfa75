import { afterEach, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../config';
import { AppError } from '../errors/app-error';
import { hashPassword, resetPasswordGateForTests, unusablePasswordHash, verifyPassword } from './password';

const saved = { concurrency: process.env.PASSWORD_HASH_CONCURRENCY, queue: process.env.PASSWORD_HASH_QUEUE };

function restore(name: string, value: string | undefined) {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

afterEach(() => {
  restore('PASSWORD_HASH_CONCURRENCY', saved.concurrency);
  restore('PASSWORD_HASH_QUEUE', saved.queue);
  resetConfigForTests();
  resetPasswordGateForTests();
});

describe('password hashing', () => {
  it('verifies what it hashed, and nothing else', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('wrong horse battery', stored)).toBe(false);
  });
});

describe('hardening 5: concurrent password hashing is bounded process-wide', () => {
  it('with the queue full, extra hashes are refused at once with 503 auth.busy and Retry-After, not queued', async () => {
    process.env.PASSWORD_HASH_CONCURRENCY = '1';
    process.env.PASSWORD_HASH_QUEUE = '2';
    resetConfigForTests();
    resetPasswordGateForTests();

    // One runs, two wait, and the next three (sign-in checks included) are turned away.
    const outcomes = await Promise.allSettled([
      hashPassword('password-one'),
      hashPassword('password-two'),
      verifyPassword('password-three', unusablePasswordHash),
      hashPassword('password-four'),
      verifyPassword('password-five', unusablePasswordHash),
      hashPassword('password-six'),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected', 'rejected']);
    for (const outcome of outcomes.slice(3)) {
      const error = (outcome as PromiseRejectedResult).reason as AppError;
      expect(error).toBeInstanceOf(AppError);
      expect(error.code).toBe('auth.busy');
      expect(error.status).toBe(503);
      expect(error.headers['Retry-After']).toBe('2');
      expect(error.details).toEqual({ retryAfterSeconds: 2 });
    }
    // Once the line has drained, hashing works again.
    await expect(hashPassword('password-seven')).resolves.toMatch(/^scrypt\$/);
  });
});
