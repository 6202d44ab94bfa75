import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../testing/test-database';
import { blobKeys, blobStore } from './blob-store';

await useTestDatabase();

describe('blob store (PostgreSQL backend)', () => {
  it('stores, replaces, reads and deletes binary content by key', async () => {
    const key = blobKeys.upload('00000000-0000-4000-8000-000000000001');
    const bytes = Buffer.from([0, 1, 2, 255, 254]);
    expect(await blobStore().put(key, bytes)).toMatchObject({ size: 5 });
    expect(await blobStore().get(key)).toEqual(bytes);
    await blobStore().put(key, Buffer.from('new'));
    expect((await blobStore().get(key))?.toString()).toBe('new');
    await blobStore().delete([key]);
    expect(await blobStore().get(key)).toBeNull();
  });

  it('stores many at once, replacing existing keys', async () => {
    const first = blobKeys.attachment('00000000-0000-4000-8000-000000000002', 0);
    const second = blobKeys.attachment('00000000-0000-4000-8000-000000000002', 1);
    await blobStore().put(first, Buffer.from('old'));
    await blobStore().putMany([
      { key: first, content: Buffer.from([0, 255, 10, 13]) },
      { key: second, content: Buffer.alloc(0) },
    ]);
    expect(await blobStore().get(first)).toEqual(Buffer.from([0, 255, 10, 13]));
    expect(await blobStore().get(second)).toEqual(Buffer.alloc(0));
  });
});
