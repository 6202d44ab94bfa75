import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../testing/test-database';
import { db } from './db';
import {
  purgeEndedSessions,
  purgeExpiredIdempotencyRecords,
  purgeOldRateLimitBuckets,
  purgeStaleInvitations,
} from './housekeeping';

await useTestDatabase();

const now = new Date('2030-06-15T12:00:00.000Z');
const minute = 60_000;
const day = 24 * 60 * minute;
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);

let memberId: string;
beforeEach(async () => {
  await db().session.deleteMany();
  await db().invitation.deleteMany();
  await db().idempotencyRecord.deleteMany();
  await db().rateLimitBucket.deleteMany();
  await db().member.deleteMany();
  memberId = (await db().member.create({ data: { email: 'ada@example.test', name: 'Ada', passwordHash: 'x' } })).id;
});

async function sessionWith(label: string, data: { expiresAt: Date; revokedAt?: Date }) {
  await db().session.create({ data: { memberId, tokenHash: label, ...data } });
}

async function remaining(model: 'session' | 'invitation'): Promise<string[]> {
  const rows = model === 'session' ? await db().session.findMany() : await db().invitation.findMany();
  return rows.map((row) => row.tokenHash).sort();
}

describe('purgeEndedSessions', () => {
  it('deletes sessions expired or revoked more than a day ago, keeps the others', async () => {
    await sessionWith('active', { expiresAt: at(10 * day) });
    await sessionWith('expired-recently', { expiresAt: at(-day + minute) });
    await sessionWith('expired-long-ago', { expiresAt: at(-day - minute) });
    await sessionWith('revoked-recently', { expiresAt: at(10 * day), revokedAt: at(-day + minute) });
    await sessionWith('revoked-long-ago', { expiresAt: at(10 * day), revokedAt: at(-day - minute) });

    expect(await purgeEndedSessions(now)).toBe(2);
    expect(await remaining('session')).toEqual(['active', 'expired-recently', 'revoked-recently']);
  });
});

describe('purgeStaleInvitations', () => {
  it('deletes invitations never accepted and expired for more than 30 days', async () => {
    const invitation = (tokenHash: string, expiresAt: Date, extra: { acceptedAt?: Date; revokedAt?: Date } = {}) =>
      db().invitation.create({ data: { email: `${tokenHash}@example.test`, tokenHash, expiresAt, invitedById: memberId, ...extra } });
    await invitation('pending', at(2 * day));
    await invitation('expired-29-days', at(-29 * day));
    await invitation('expired-31-days', at(-31 * day));
    await invitation('revoked-expired-31-days', at(-31 * day), { revokedAt: at(-40 * day) });
    await invitation('accepted-expired-31-days', at(-31 * day), { acceptedAt: at(-35 * day) });

    expect(await purgeStaleInvitations(now)).toBe(2);
    expect(await remaining('invitation')).toEqual(['accepted-expired-31-days', 'expired-29-days', 'pending']);
  });
});

describe('purgeExpiredIdempotencyRecords', () => {
  it('deletes records whose expiresAt has passed', async () => {
    const record = (key: string, expiresAt: Date) =>
      db().idempotencyRecord.create({
        data: { memberId: randomUUID(), route: 'POST /tables', key, requestHash: 'h', state: 'done', lockedUntil: at(-day), expiresAt },
      });
    await record('expired', at(-minute));
    await record('live', at(minute));

    expect(await purgeExpiredIdempotencyRecords(now)).toBe(1);
    expect((await db().idempotencyRecord.findMany()).map((row) => row.key)).toEqual(['live']);
  });
});

describe('purgeOldRateLimitBuckets', () => {
  it('deletes buckets older than an hour', async () => {
    const second = Math.floor(now.getTime() / 1000);
    await db().rateLimitBucket.createMany({
      data: [
        { key: 'ip:1', second: BigInt(second - 3601), hits: 3 },
        { key: 'ip:1', second: BigInt(second - 3599), hits: 1 },
        { key: 'ip:2', second: BigInt(second), hits: 1 },
      ],
    });

    expect(await purgeOldRateLimitBuckets(now)).toBe(1);
    const left = await db().rateLimitBucket.findMany({ orderBy: { second: 'asc' } });
    expect(left.map((row) => Number(row.second))).toEqual([second - 3599, second]);
  });
});
