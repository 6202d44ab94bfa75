/**
 * What a run's page says about its waits (issue 24 §1): what a waiting step waits for and until when
 * (`waitUntil`, the deadline of its saved suspension), and how a wait for a reply ended: by whose
 * reply (`replied` output, the reply as a mail trigger gives a message) or by its deadline (`timeout`).
 * Step data is read defensively: it is whatever the node stored.
 */
import { conversationHref } from '../../messages/_lib/links';

/** What a waiting step waits for, from its node type (`flow.wait_for_reply`, `approval.request@1`…). */
export type WaitKind = 'reply' | 'decision' | 'time';

export function waitKindOf(nodeType: string): WaitKind {
  switch (nodeType.split('@')[0]) {
    case 'flow.wait_for_reply':
      return 'reply';
    case 'approval.request':
      return 'decision';
    default:
      return 'time';
  }
}

interface StepFacts {
  nodeType: string;
  status: string;
  output: string | null;
  data: Record<string, unknown> | null;
  input: Record<string, unknown>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

export interface ReplyFacts {
  fromName: string | null;
  fromEmail: string | null;
  subject: string | null;
  receivedAt: string | null;
  /** The reply opened in its conversation in the webmail, when the reply says where it is. */
  href: string | null;
}

export type ReplyWaitEnd = { replied: true; reply: ReplyFacts | null } | { replied: false; deadline: string | null };

/** How a finished wait for a reply ended, or null for any other step (or one still waiting). */
export function replyWaitEndOf(step: StepFacts): ReplyWaitEnd | null {
  if (waitKindOf(step.nodeType) !== 'reply' || step.status !== 'succeeded') return null;
  const data = step.data ?? {};
  if (step.output === 'replied') {
    const reply = isRecord(data.reply) ? data.reply : null;
    if (!reply) return { replied: true, reply: null };
    const from = isRecord(reply.from) ? reply.from : {};
    const mailboxId = text(reply.mailboxId);
    const threadId = text(reply.threadId);
    return {
      replied: true,
      reply: {
        fromName: text(from.name),
        fromEmail: text(from.email),
        subject: text(reply.subject),
        receivedAt: text(reply.receivedAt),
        href: mailboxId && threadId ? conversationHref(mailboxId, threadId) : null,
      },
    };
  }
  if (step.output === 'timeout') return { replied: false, deadline: text(data.deadline) };
  return null;
}

/**
 * The conversation a wait for a reply watches, opened in the webmail: the triggering message's, when
 * the step watches that one (no `messageId` of its own, or the trigger's) and the trigger data says
 * where it is.
 */
export function watchedConversationHref(step: Pick<StepFacts, 'nodeType' | 'input'>, triggerData: Record<string, unknown> | null): string | null {
  if (waitKindOf(step.nodeType) !== 'reply' || !triggerData) return null;
  const watched = text(step.input.messageId);
  if (watched && watched !== triggerData.id) return null;
  const mailboxId = text(triggerData.mailboxId);
  const threadId = text(triggerData.threadId);
  return mailboxId && threadId ? conversationHref(mailboxId, threadId) : null;
}
