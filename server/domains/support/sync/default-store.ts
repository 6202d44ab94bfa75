/**
 * The store the runner and the branding read use: the database's (`supportSyncStore`, ../sync-store.ts), unless a
 * test process bound another one. Tests hand their store to `syncSupport` and `operatorBranding` directly.
 */
import { supportSyncStore } from '../sync-store';
import type { SupportSyncStore } from './store';

let boundForTests: SupportSyncStore | null = null;

export function defaultSupportSyncStore(): SupportSyncStore | null {
  return boundForTests ?? supportSyncStore;
}

/** A real runner process in a test binds its store here (server/testing/control-plane/runner-store.ts). */
export function bindSupportSyncStoreForTests(store: SupportSyncStore | null): void {
  boundForTests = store;
}
