import { describe, expect, it } from 'vitest';
import { cronItems } from '../../../../runner/crontab';
import { taskList } from '../../../../runner/tasks';
import { MemorySupportStore } from '../../../testing/control-plane/memory-store';
import type { ControlPlaneClient } from './client';
import { followUpAt, syncSupport } from './job';

const link = { url: 'https://control.example.test', instanceId: 'i-1', secret: 'secret-secret-secret' };
const refusingClient: ControlPlaneClient = {
  deliver: () => Promise.reject(new Error('must not be called')),
  changes: () => Promise.reject(new Error('must not be called')),
  branding: () => Promise.reject(new Error('must not be called')),
};

describe('the runner support sync job', () => {
  it('is a no-op when the instance is not linked', async () => {
    expect(await syncSupport({ link: null, store: new MemorySupportStore(), client: refusingClient })).toBeNull();
  });

  it('is a no-op when no store is bound, even when linked', async () => {
    expect(await syncSupport({ link, store: null, client: refusingClient })).toBeNull();
  });

  it('runs one exchange when linked', async () => {
    const client: ControlPlaneClient = {
      deliver: () => Promise.reject(new Error('nothing to deliver')),
      changes: async () => ({ changes: [], nextCursor: 'c0', hasMore: false, skipped: 0 }),
      branding: async () => null,
    };
    const store = new MemorySupportStore();
    const at = new Date('2026-12-03T10:00:00Z');
    expect(await syncSupport({ link, store, client, now: () => at, followUp: false })).toMatchObject({ synced: true, delivered: 0 });
    expect(await store.linkState()).toEqual({ cursor: 'c0', syncedAt: at });
  });

  it('is registered as support.sync (a write) and support-sync-interval (every minute)', () => {
    expect(Object.keys(taskList)).toEqual(expect.arrayContaining(['support.sync', 'support-sync-interval']));
    expect(cronItems).toContainEqual(expect.objectContaining({ task: 'support-sync-interval', match: '* * * * *' }));
  });

  describe('the next exchange (SUPPORT_SYNC_INTERVAL_SECONDS)', () => {
    const now = new Date('2026-12-03T10:00:00Z');
    const after = (ms: number) => new Date(now.getTime() + ms);

    it('leaves the pull to the crontab at the default minute', () => {
      expect(followUpAt(null, now, 60_000)).toBeNull();
    });

    it('chains the next pull when the interval is shorter than the minute', () => {
      expect(followUpAt(null, now, 5_000)).toEqual(after(5_000));
    });

    it('takes a retry due before the next pull or the next minute', () => {
      expect(followUpAt(after(2_000), now, 5_000)).toEqual(after(2_000));
      expect(followUpAt(after(30_000), now, 60_000)).toEqual(after(30_000));
      expect(followUpAt(after(30_000), now, 5_000)).toEqual(after(5_000));
    });

    it('leaves a retry later than the minute to the crontab', () => {
      expect(followUpAt(after(10 * 60_000), now, 60_000)).toBeNull();
    });
  });
});
