import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { useTestDatabase } from '../../testing/test-database';
import { purgeStaleInvitations } from './housekeeping';

await useTestDatabase();

const now = new Date('2030-06-15T12:00:00.000Z');
const day = 24 * 60 * 60_000;
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);

let memberId: string;
beforeEach(async () => {
  await db().invitation.deleteMany();
  await db().member.deleteMany();
  memberId = (await db().member.create({ data: { email: 'ada@example.test', name: 'Ada', passwordHash: 'x' } })).id;
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
    expect((await db().invitation.findMany()).map((row) => row.tokenHash).sort()).toEqual(['accepted-expired-31-days', 'expired-29-days', 'pending']);
  });
});
