/**
 * Password hashing with scrypt (memory-hard; Node's built-in, no native addon to build).
 * Stored form: `scrypt$N$r$p$salt$hash`, all base64url, so parameters can be raised later.
 *
 * Every hash (sign-in's check included) passes one process-wide gate: at most
 * PASSWORD_HASH_CONCURRENCY run at once on libuv's thread pool (4 threads, shared with file and DNS
 * work), at most PASSWORD_HASH_QUEUE wait, and beyond that the request is refused at once with 503
 * `auth.busy`. A flood of password-carrying requests then costs a bounded amount of CPU and memory
 * (32 MB per running hash) instead of starving sign-in and everything else on the pool.
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { config } from '../config';
import { appError } from '../errors/app-error';
import { BoundedGate, GateFullError } from '../bounded-gate';

const N = 2 ** 15;
const r = 8;
const p = 1;
const keyLength = 32;
const maxmem = 64 * 1024 * 1024;

/** A client refused for a full queue may try again about this much later (a queue drains in ~1-2 s). */
export const busyRetryAfterSeconds = 2;

let gate: BoundedGate | null = null;

function hashingGate(): BoundedGate {
  const { PASSWORD_HASH_CONCURRENCY, PASSWORD_HASH_QUEUE } = config();
  gate ??= new BoundedGate(PASSWORD_HASH_CONCURRENCY, PASSWORD_HASH_QUEUE);
  return gate;
}

/** Tests change the gate's settings between cases; this drops the process's gate (call when idle). */
export function resetPasswordGateForTests(): void {
  gate = null;
}

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return hashingGate()
    .run(
      () =>
        new Promise<Buffer>((resolve, reject) =>
          scryptCallback(password, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key))),
        ),
    )
    .catch((error: unknown) => {
      if (error instanceof GateFullError) {
        throw appError('auth.busy', { details: { retryAfterSeconds: busyRetryAfterSeconds }, headers: { 'Retry-After': String(busyRetryAfterSeconds) } });
      }
      throw error;
    });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, { N, r, p, maxmem });
  return ['scrypt', N, r, p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, rr, pp, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(rr),
    p: Number(pp),
    maxmem,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A stored hash no password matches, used to keep sign-in timing equal for unknown emails. */
export const unusablePasswordHash = `scrypt$${N}$${r}$${p}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(32).toString('base64url')}`;

/** Password rules for new passwords: 10 to 200 characters. */
export const passwordBounds = { min: 10, max: 200 } as const;
