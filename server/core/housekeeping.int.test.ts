import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../testing/test-database';
import { db } from './db';
import { purgeExpiredIdempotencyRecords, purgeOldRateLimitBuckets } from './housekeeping';

await useTestDatabase();

const now = new Date('2030-06-15T12:00:00.000Z');
const minute = 60_000;
const day = 24 * 60 * minute;
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);

beforeEach(async () => {
  await db().idempotencyRecord.deleteMany();
  await db().rateLimitBucket.deleteMany();
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
