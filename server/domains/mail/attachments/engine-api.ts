/**
 * What the engine's `mail` capability (server/engine-adapters/create.ts) may use of the webmail's
 * attachments: their text for the AI nodes, read through the download path. Re-exports only.
 */
export { attachmentTextsOf } from './attachment-text';
