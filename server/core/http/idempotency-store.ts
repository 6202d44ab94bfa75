/**
 * Idempotency records: one per (member, route, Idempotency-Key), remembered for 24 hours.
 *
 * claim() decides what a request with a key does:
 * - `execute`: first use (or the previous holder crashed past its lease): run it, then complete().
 * - `replay`: a finished first request with the same body: answer its stored status and body.
 * - `reused`: the key was used with a different body (409 `idempotency.key_reused`).
 * - `busy`: the first request is still running (the caller waits, then 409 `idempotency.in_progress`).
 * The unique index on (member, route, key) is what makes two concurrent requests never both execute.
 */
import { createHmac } from 'node:crypto';
import { instanceSubkey } from '../crypto/secret-box';
import { db } from '../db';

export const idempotencyMemoryMs = 24 * 60 * 60 * 1000;
export const maxStoredResponseBytes = 64 * 1024;
/** How long a running first request holds the key before another may take it over (crash recovery). */
const leaseMs = 2 * 60 * 1000;

export type Claim =
  | { kind: 'execute'; recordId: string }
  | { kind: 'replay'; status: number; body: unknown }
  | { kind: 'reused' }
  | { kind: 'busy' };

/**
 * Same JSON value, same hash, whatever the key order. Keyed (HMAC under a subkey of the instance key)
 * because bodies carry secrets (an IMAP password on connect): a plain digest kept for 24 hours would
 * let anyone who reads the database test password guesses against it. Without an instance key no
 * secret can be stored anyway, and the hash is keyed with a fixed label only.
 */
export function requestHashOf(input: unknown): string {
  return createHmac('sha256', instanceSubkey('idempotency request hash') ?? 'mailflow idempotency').update(canonicalJson(input)).digest('hex');
}

/**
 * Sorted-key JSON text of a parsed body. Iterative: JSON.parse accepts any nesting depth, and the
 * body is hashed before input validation, so a recursive walk would overflow the stack (a 500) on a
 * body nested a few thousand levels deep.
 */
export function canonicalJson(root: unknown): string {
  const out: string[] = [];
  const pending: ({ value: unknown } | { text: string })[] = [{ value: root }];
  while (pending.length > 0) {
    const task = pending.pop()!;
    if ('text' in task) {
      out.push(task.text);
      continue;
    }
    const { value } = task;
    if (value === undefined) out.push('null');
    else if (value === null || typeof value !== 'object') out.push(JSON.stringify(value));
    else {
      const parts: ({ value: unknown } | { text: string })[] = [];
      if (Array.isArray(value)) {
        parts.push({ text: '[' });
        value.forEach((item, index) => parts.push(...(index ? [{ text: ',' }] : []), { value: item }));
        parts.push({ text: ']' });
      } else {
        const entries = Object.entries(value as Record<string, unknown>)
          .filter(([, item]) => item !== undefined)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        parts.push({ text: '{' });
        entries.forEach(([key, item], index) => parts.push({ text: `${index ? ',' : ''}${JSON.stringify(key)}:` }, { value: item }));
        parts.push({ text: '}' });
      }
      for (let index = parts.length - 1; index >= 0; index--) pending.push(parts[index]);
    }
  }
  return out.join('');
}

interface Scope {
  memberId: string;
  route: string;
  key: string;
  requestHash: string;
}

export async function claim(scope: Scope, now = new Date()): Promise<Claim> {
  const lockedUntil = new Date(now.getTime() + leaseMs);
  const expiresAt = new Date(now.getTime() + idempotencyMemoryMs);
  const inserted = await db().$queryRaw<{ id: string }[]>`
    INSERT INTO idempotency_records (id, member_id, route, key, request_hash, state, locked_until, created_at, expires_at)
    VALUES (gen_random_uuid(), ${scope.memberId}::uuid, ${scope.route}, ${scope.key}, ${scope.requestHash}, 'running', ${lockedUntil}, ${now}, ${expiresAt})
    ON CONFLICT (member_id, route, key) DO UPDATE
      SET request_hash = EXCLUDED.request_hash, state = 'running', response_status = NULL, response_body = NULL,
          locked_until = EXCLUDED.locked_until, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
      WHERE idempotency_records.expires_at <= ${now}
         OR (idempotency_records.state = 'running' AND idempotency_records.locked_until <= ${now}
             AND idempotency_records.request_hash = EXCLUDED.request_hash)
    RETURNING id`;
  if (inserted.length > 0) return { kind: 'execute', recordId: inserted[0].id };

  const existing = await db().idempotencyRecord.findUnique({
    where: { memberId_route_key: { memberId: scope.memberId, route: scope.route, key: scope.key } },
  });
  if (!existing) return claim(scope, now); // purged between the two statements: try again
  if (existing.requestHash !== scope.requestHash) return { kind: 'reused' };
  if (existing.state === 'done' && existing.responseStatus !== null) {
    return { kind: 'replay', status: existing.responseStatus, body: existing.responseBody };
  }
  return { kind: 'busy' };
}

/** Stores the first answer. Returns false when it is too large to keep (the record is then dropped). */
export async function complete(recordId: string, status: number, body: unknown): Promise<boolean> {
  const size = Buffer.byteLength(JSON.stringify(body ?? null));
  if (size > maxStoredResponseBytes) {
    await release(recordId);
    return false;
  }
  await db().idempotencyRecord.update({
    where: { id: recordId },
    data: { state: 'done', responseStatus: status, responseBody: (body ?? null) as never },
  });
  return true;
}

/** Forgets a claim whose request ended in a server error, so the client may retry with the same key. */
export async function release(recordId: string): Promise<void> {
  await db().idempotencyRecord.deleteMany({ where: { id: recordId } });
}
