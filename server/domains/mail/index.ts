/**
 * The mail domain's public face: what other domains, the HTTP layer and the runner may import from it
 * (ESLint refuses their imports of any other file here). Re-exports only; the code lives in the files named.
 */
export { addressesOf, recordOf } from './present';
export { contentDisposition, downloadMediaType, previewHeaders, previewMediaType } from './attachments/download-headers';
export { downloadAttachment, maxUploadBodyBytes, maxUploadBytes, uploadAttachment } from './attachments/service';
export { purgeExpiredUploads } from './attachments/housekeeping';
export { findMemberMessageSubject, findMessageHeadlines } from './messages/repo';
export { findFrequentCorrespondents, type Correspondent } from './correspondents/repo';
export { actOnMessage } from './threads/actions/service';
export type { MessageActionAnswer, MessageState } from './threads/actions/service';
export { findFolderKeysOfMailboxes, findFoldersByMessageIdHeader, findMessageStates, findUsedClientTokens } from './threads/actions/repo';
