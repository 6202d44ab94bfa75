import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { useTestDatabase } from '../../testing/test-database';
import { purgeEndedSessions } from './housekeeping';

await useTestDatabase();

const now = new Date('2030-06-15T12:00:00.000Z');
const minute = 60_000;
const day = 24 * 60 * minute;
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);

let memberId: string;
beforeEach(async () => {
  await db().session.deleteMany();
  await db().member.deleteMany();
  memberId = (await db().member.create({ data: { email: 'ada@example.test', name: 'Ada', passwordHash: 'x' } })).id;
});

async function sessionWith(label: string, data: { expiresAt: Date; revokedAt?: Date }) {
  await db().session.create({ data: { memberId, tokenHash: label, ...data } });
}

describe('purgeEndedSessions', () => {
  it('deletes sessions expired or revoked more than a day ago, keeps the others', async () => {
    await sessionWith('active', { expiresAt: at(10 * day) });
    await sessionWith('expired-recently', { expiresAt: at(-day + minute) });
    await sessionWith('expired-long-ago', { expiresAt: at(-day - minute) });
    await sessionWith('revoked-recently', { expiresAt: at(10 * day), revokedAt: at(-day + minute) });
    await sessionWith('revoked-long-ago', { expiresAt: at(10 * day), revokedAt: at(-day - minute) });

    expect(await purgeEndedSessions(now)).toBe(2);
    expect((await db().session.findMany()).map((row) => row.tokenHash).sort()).toEqual(['active', 'expired-recently', 'revoked-recently']);
  });
});
