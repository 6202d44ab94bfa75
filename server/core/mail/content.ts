/**
 * PLACEHOLDER written by the read side (branch h-read) until the sync's own file lands: fetches a
 * message's body and attachments from the server into the mirror when they were not mirrored
 * (`bodyComplete` false, attachments without content). The sync helper's version replaces this file
 * whole, with the same signature; this one only says that it was asked.
 */
import { log } from '../log';

export async function fetchMessageContent(messageId: string): Promise<void> {
  log.info({ messageId }, 'fetchMessageContent: on-demand fetch not available in this build');
}
