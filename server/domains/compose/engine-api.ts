/**
 * What the engine's `send` capability (server/engine-adapters/send.ts) may use of the compose domain:
 * an answer's defaults, the member's mailbox and original message, the attachment bound.
 * Re-exports only; the rest of the domain is its own.
 */
export { answerContext } from './context';
export { memberMailbox, memberOriginal } from './repo';
export { maxComposeAttachments } from './schemas';
