/**
 * Loaded before runner/main.ts in a crash test (`runnerProcesses(env, { imports: [...] })`): binds the
 * file-backed memory store (SUPPORT_STORE_FILE) as the runner's support store, so a real runner process runs the
 * real `support.sync` task over state that survives its SIGKILL.
 */
import { bindSupportSyncStoreForTests } from '../../domains/support/sync/default-store';
import { MemorySupportStore } from './memory-store';

const file = process.env.SUPPORT_STORE_FILE;
if (!file) throw new Error('SUPPORT_STORE_FILE is required');
bindSupportSyncStoreForTests(new MemorySupportStore(file));
