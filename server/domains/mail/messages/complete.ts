/**
 * A member's message with what the mirror lacks fetched from the server first: the body of a message cut at
 * ingest, or a row listed from its header the body pass has not reached yet (its body, its signals, its list's
 * unsubscribe; filled in the mirror as the pass would fill it).
 */
import { log } from '../../../core/log';
import { fetchMessageContent } from '../../../mail/content';
import { findMemberMessage, type MemberMessage } from './repo';

/**
 * The message as the mirror has it once completed (`bodyComplete` false before); in `processing_only` mode the
 * fetched body is used without being stored. A server that cannot be reached leaves the answer as the mirror has
 * it: `bodyComplete: false`.
 */
export async function completeMessage(memberId: string, message: MemberMessage): Promise<MemberMessage> {
  if (message.bodyComplete) return message;
  let fetched: Awaited<ReturnType<typeof fetchMessageContent>> = null;
  try {
    fetched = await fetchMessageContent(message.id);
  } catch (error) {
    log.warn({ messageId: message.id, err: error instanceof Error ? error.message : String(error) }, 'message content could not be fetched');
  }
  if (!fetched?.fetched) return message;
  const reread = (await findMemberMessage(memberId, message.id)) ?? message;
  return { ...reread, bodyText: fetched.bodyText, bodyHtml: fetched.bodyHtml, bodyComplete: fetched.bodyComplete };
}
