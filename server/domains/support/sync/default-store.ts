/**
 * The database store the runner and the branding read use. sup-core implements `SupportSyncStore` in
 * `server/domains/support/sync-store.ts` (`supportSyncStore`); this is the one line that binds it, written when
 * the two lanes merge: import `supportSyncStore` from `../sync-store` and return it here.
 *
 * Until then there is no store: the sync job logs that it has none and does nothing, and the branding stays the
 * environment's. Tests hand their store to `syncSupport` and `operatorBranding` directly.
 */
import type { SupportSyncStore } from './store';

let boundForTests: SupportSyncStore | null = null;

export function defaultSupportSyncStore(): SupportSyncStore | null {
  return boundForTests;
}

/** A real runner process in a test binds its store here (server/testing/control-plane/runner-store.ts). */
export function bindSupportSyncStoreForTests(store: SupportSyncStore | null): void {
  boundForTests = store;
}
