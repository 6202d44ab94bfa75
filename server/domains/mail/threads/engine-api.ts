/**
 * What the engine's `mail` capability (server/engine-adapters/create.ts) may use of the webmail's
 * threads: the single-message action (and its check, the same reads without acting), and a thread read as a
 * conversation (mail.read_thread). Re-exports only.
 */
export { actOnMessage, checkMessageAction } from './actions/service';
export type { ThreadAction } from './actions/plan';
export { conversationOf } from './conversation';
