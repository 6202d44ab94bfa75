import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { useTestDatabase } from '../../testing/test-database';
import { purgeOldTableWriteEffects } from './housekeeping';

await useTestDatabase();

const now = new Date('2030-06-15T12:00:00.000Z');
const minute = 60_000;
const day = 24 * 60 * minute;
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);

describe('purgeOldTableWriteEffects', () => {
  it('deletes effect records older than 30 days, keeps the recent ones', async () => {
    const effect = (effectKey: string, createdAt: Date) =>
      db().tableWriteEffect.create({ data: { effectKey, operation: 'insert', tableId: randomUUID(), rowId: null, executionId: 'exec-1', result: {}, createdAt } });
    await effect('31-days-old', at(-31 * day));
    await effect('29-days-old', at(-29 * day));
    await effect('just-written', at(-minute));

    expect(await purgeOldTableWriteEffects(now)).toBe(1);
    expect((await db().tableWriteEffect.findMany({ orderBy: { createdAt: 'asc' } })).map((row) => row.effectKey)).toEqual(['29-days-old', 'just-written']);
  });
});
