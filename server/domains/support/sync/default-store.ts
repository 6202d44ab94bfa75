/**
 * The store the runner and the branding read use: the database's (`supportSyncStore`, ../sync-store.ts). Tests of
 * the loop hand their own store to `syncSupport` and `operatorBranding` directly.
 */
import { supportSyncStore } from '../sync-store';
import type { SupportSyncStore } from './store';

export function defaultSupportSyncStore(): SupportSyncStore | null {
  return supportSyncStore;
}
