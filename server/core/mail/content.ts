/**
 * PLACEHOLDER written by the read side (branch h-read) until the sync's own file lands (branch h-sync,
 * same signature and answer shape): reads a message's body or one attachment from the provider when
 * the mirror lacks it. This one never reaches a provider: it answers null (nothing fetched), so the
 * routes answer what the mirror has. The sync helper's version replaces this file whole.
 */
import { log } from '../log';

export interface FetchedContent {
  bodyText: string | null;
  bodyHtml: string | null;
  bodyComplete: boolean;
  /** The requested attachment's bytes (`attachmentPosition`), or null when it has none or it could not be read. */
  attachment: { content: Buffer; mime: string; filename: string } | null;
  /** Whether the provider was asked (false: served from the mirror, or the provider failed). */
  fetched: boolean;
  /** When the provider failed. */
  failure: string | null;
}

export async function fetchMessageContent(messageId: string, options: { attachmentPosition?: number } = {}): Promise<FetchedContent | null> {
  log.info({ messageId, attachmentPosition: options.attachmentPosition }, 'fetchMessageContent: on-demand fetch not available in this build');
  return null;
}
