import { describe, expect, it } from 'vitest';
import { db } from '../../../core/db';
import { blobKeys, blobStore } from '../../../core/storage/blob-store';
import { createMember } from '../../../testing/factories';
import { useTestDatabase } from '../../../testing/test-database';
import { purgeExpiredUploads } from './housekeeping';

await useTestDatabase();

describe('purgeExpiredUploads', () => {
  it('removes expired uploads with their content, and keeps the others', async () => {
    const member = await createMember();
    const now = new Date();
    const make = async (id: string, expiresAt: Date) => {
      await blobStore().put(blobKeys.upload(id), Buffer.from(id));
      await db().uploadedAttachment.create({ data: { id, memberId: member.id, filename: 'a.txt', mime: 'text/plain', size: 1, blobKey: blobKeys.upload(id), expiresAt } });
    };
    const expired = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000003'];
    for (const id of expired) await make(id, new Date(now.getTime() - 1000));
    const live = '00000000-0000-4000-8000-000000000004';
    await make(live, new Date(now.getTime() + 3_600_000));
    expect(await purgeExpiredUploads(now, 2)).toBe(3);
    expect(await db().uploadedAttachment.findMany({ select: { id: true } })).toEqual([{ id: live }]);
    for (const id of expired) expect(await blobStore().get(blobKeys.upload(id))).toBeNull();
    expect(await blobStore().get(blobKeys.upload(live))).not.toBeNull();
    expect(await purgeExpiredUploads(now)).toBe(0);
  });
});
