/**
 * Wait for a reply (issue 24 §1): the run waits (`waiting`: no slot, no working time) until someone
 * replies in the thread of the triggering (or a chosen) message, or a duration passes, whichever comes
 * first; the duration may count business hours only (`businessHours`: days and hours in a time zone).
 *
 * A reply is a message of the thread received after the message waited on that a person other than the
 * mailbox wrote: the mailbox's own messages, auto-replies (out of office), delivery reports, bulk mail,
 * no-reply senders, drafts and senders excluded from workflows do not end the wait. The `replied` port
 * carries the reply as a mail trigger gives a message (`reply.from.email`, `reply.text`…); `timeout` runs
 * when the duration passed first. Both carry `{replied, reply, messageId, waitedFrom, deadline}`.
 *
 * Durable and event-driven: the engine registers the wait with the step's suspension and the mail
 * dispatcher resumes the run in the transaction that journals the reply (server/engine/dispatch/
 * reply-waits.ts); a reply that arrived before the wait began ends it at once. A test run waits the same
 * (a read: it acts on nothing), like `flow.wait`.
 *
 * Why a node of its own rather than a mode of `flow.wait`: it has two outputs where the wait has one that
 * passes its input on, it reads the member's mail (`messages:read`, a mailbox needed) where the wait
 * needs nothing, and `flow.wait@1` stays as graphs saved with it expect.
 */
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';
import { fail } from '../../contract/failures';
import { engineBounds } from '../../contract/limits';
import { quotedValue } from '../../../core/quoted-value';
import { mailTriggerData } from '../triggers/mail-trigger.node.ts';
import { businessHoursSchema, deadlineAfter } from './business-time';

interface WaitState {
  messageId: string;
  waitedFrom: string;
  deadline: string;
}

function stateOf(value: unknown): Partial<WaitState> {
  return value && typeof value === 'object' ? (value as Partial<WaitState>) : {};
}

export const waitForReplyNode = defineNode({
  type: 'flow.wait_for_reply',
  version: 1,
  category: 'flow',
  label: { en: 'Wait for a reply', fr: 'Attendre une réponse' },
  description: {
    en: 'Pauses the run until someone replies in the thread of the triggering message, or a duration passes (optionally counted in business hours), whichever comes first; continues on the replied output with the reply, or on the timeout output. Your own messages and automatic replies do not count.',
    fr: 'Met l’exécution en pause jusqu’à ce que quelqu’un réponde dans la conversation du message déclencheur, ou qu’une durée passe (comptée en heures ouvrées si vous le voulez), selon ce qui arrive en premier ; continue par la sortie réponse avec la réponse, ou par la sortie délai dépassé. Vos propres messages et les réponses automatiques ne comptent pas.',
  },
  params: z.strictObject({
    messageId: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe('A message of the thread to watch (a message id or an expression); default: the message that started the run. Replies count from this message on.'),
    amount: z.number().int().min(1).max(1_000_000).describe('How many units to wait at most for a reply.'),
    unit: z.enum(['minutes', 'hours', 'days']).describe('The unit of `amount` (with business hours, a day is one business day’s hours).'),
    businessHours: businessHoursSchema
      .optional()
      .describe('Count only business hours: the days and hours of a time zone (public holidays are not known). Absent: calendar time.'),
  }),
  outputs: ['replied', 'timeout'],
  output: z.strictObject({
    replied: z.boolean().describe('Whether a reply ended the wait (the replied output) or the duration did (the timeout output).'),
    reply: mailTriggerData.nullable().describe('The reply, as the mail trigger gives a message (its sender’s card left out); null on timeout.'),
    messageId: z.string().describe('The message whose conversation was watched.'),
    waitedFrom: z.string().describe('When the wait began (ISO 8601).'),
    deadline: z.string().describe('When the wait would end without a reply (ISO 8601).'),
  }),
  effect: 'none',
  requires: ['mail'],
  persistsStepFirst: true,
  scopes: ['messages:read'],
  async execute({ params, execution, resume, state, capabilities, now }) {
    const kept = stateOf(state);
    const ended = { messageId: kept.messageId ?? null, waitedFrom: kept.waitedFrom ?? null, deadline: kept.deadline ?? null };
    if (resume?.reason === 'decision') {
      const payload = (resume.payload && typeof resume.payload === 'object' ? resume.payload : {}) as { reply?: unknown };
      return { output: 'replied', data: { replied: true, reply: payload.reply ?? null, ...ended } };
    }
    if (resume?.reason === 'timer') return { output: 'timeout', data: { replied: false, reply: null, ...ended } };

    // An attempt run again after its runner died (a resume cut off) keeps the wait it began: same message, same deadline.
    if (kept.messageId && kept.waitedFrom && kept.deadline) {
      const until = new Date(kept.deadline);
      return { kind: 'suspend', mode: 'waiting', until, state: kept, watchReplies: { messageId: kept.messageId } };
    }
    const messageId = params.messageId?.trim() || execution.messageId;
    if (!messageId) {
      throw fail.permanent('invalid_parameter', { message: 'params.messageId: the run has no triggering message; give the id of a message of the thread to watch.', details: { path: 'params.messageId' } });
    }
    if (!(await capabilities.mail.findMessage(messageId))) {
      throw fail.permanent('mail.message_not_found', {
        message: `The message “${quotedValue(messageId)}” is not in your mailboxes’ mirror (deleted, moved away, or not yours).`,
        details: { path: 'params.messageId' },
      });
    }
    const from = now();
    const deadline = deadlineAfter(from, params.amount, params.unit, params.businessHours ?? null);
    if (!deadline || deadline.getTime() - from.getTime() > engineBounds.waitMs.max) {
      throw fail.permanent('invalid_parameter', { message: 'A wait for a reply lasts at most 30 days.', details: { path: 'params.amount' } });
    }
    const waitState: WaitState = { messageId, waitedFrom: from.toISOString(), deadline: deadline.toISOString() };
    return { kind: 'suspend', mode: 'waiting', until: deadline, state: waitState, watchReplies: { messageId } };
  },
});
