/**
 * The `send` capability of the workflow mail nodes (mail.draft, mail.send): the request's defaults
 * from the message answered (server/domains/compose/context.ts), checked against the member's mirror,
 * then one outbound item through createOutbound, keyed by the step's effect key so that a retried
 * step finds the item its first attempt made. The run is recorded as the item's source.
 *
 * The signature (issue 22): `prepare` appends the address book's signature for the first recipient
 * (To, else Cc, else Bcc), from the sending mailbox's point of view (the recipient's card, else the
 * mailbox's default, else the member's), unless the node switched it off. Appended once: see
 * `appendSignature` (server/domains/contacts/signature-of.ts) and engine/nodes/mail/outbound.ts.
 */
import { db } from '../core/db';
import { inRetriedTransaction } from '../core/db/retry';
import { isUniqueViolation } from '../core/db/sql-state';
import { isAddress, uniqueAddresses } from '../mail/addresses';
import { isUuid } from '../core/ids';
import { answerContext, maxComposeAttachments, memberMailbox, memberOriginal } from '../domains/compose/engine-api';
import { appendSignature, signatureFor } from '../domains/contacts/engine-api';
import { quotedValue } from '../core/quoted-value';
import { createOutbound } from '../domains/outbound/engine-api';
import { sendsWithoutReview } from '../domains/workflows/engine-api';
import { fail } from '../engine/contract/failures';
import type { OutboundOutcome, PreparedOutbound, SendCapability } from '../engine/contract/capabilities';

export interface SendCapabilityRun {
  memberId: string;
  executionId: string;
  /** The step's full effect key for a node's key. */
  keyOf: (key: string) => string;
}

export function createSendCapability(run: SendCapabilityRun): SendCapability {
  const { memberId } = run;
  return {
    async prepare(request) {
      const tx = db();
      const original = request.answer ? await memberOriginal(tx, memberId, request.answer.messageId) : null;
      if (request.answer && !original) throw fail.permanent('mail.message_not_found');
      const mailboxId = request.mailboxId ?? original?.mailboxId ?? null;
      if (!mailboxId) throw fail.permanent('mail.mailbox_required');
      const mailbox = await memberMailbox(tx, memberId, mailboxId);
      if (!mailbox) throw fail.permanent('invalid_parameter', { message: 'The mailbox is not one of yours.', details: { reason: 'mailbox_not_found' } });
      if (mailbox.status !== 'active') throw fail.permanent('mail.mailbox_not_active');
      if (original && original.mailboxId !== mailbox.id) {
        throw fail.permanent('invalid_parameter', { message: 'The message answered is in another mailbox.', details: { reason: 'other_mailbox' } });
      }
      const context = original && request.answer ? answerContext(original, mailbox.address, request.answer.mode) : null;
      const to = uniqueAddresses(request.to ?? context?.to ?? []);
      const cc = uniqueAddresses(request.cc ?? context?.cc ?? [], to);
      const bcc = uniqueAddresses(request.bcc, [...to, ...cc]);
      if (to.length + cc.length + bcc.length === 0) {
        const why = request.answer ? 'To, Cc and Bcc are empty and the message answered gives no address to answer' : 'To, Cc and Bcc are empty';
        throw fail.permanent('invalid_parameter', { message: `params.to: the message has no recipient: ${why}.`, details: { reason: 'no_recipient', path: 'params.to' } });
      }
      for (const [field, list] of [['to', to], ['cc', cc], ['bcc', bcc]] as const) {
        if (list.length > 100) throw fail.permanent('invalid_parameter', { message: `params.${field}: at most 100 addresses (${list.length} given).`, details: { reason: 'too_many_recipients', path: `params.${field}` } });
        // The node checks the addresses it was given; the ones taken from the message answered are checked here.
        const invalid = list.find((address) => !isAddress(address));
        if (invalid !== undefined) {
          const from = request[field] === null || (field === 'bcc' && request.bcc.length === 0) ? ' (taken from the message answered)' : '';
          throw fail.permanent('invalid_parameter', { message: `params.${field}: not an e-mail address${from}: ${quotedValue(invalid)}`, details: { reason: 'invalid_address', path: `params.${field}` } });
        }
      }

      const attachments: { messageId: string; position: number }[] = [];
      for (const ref of request.attachments) {
        if (!isUuid(ref.messageId)) throw fail.permanent('mail.message_not_found');
        const found = await tx.mailAttachment.findMany({
          where: { messageId: ref.messageId, message: { mailbox: { memberId } }, ...(ref.position === null ? {} : { position: ref.position }) },
          select: { position: true },
          orderBy: { position: 'asc' },
        });
        if (ref.position !== null && found.length === 0) {
          throw fail.permanent('invalid_parameter', { message: `No attachment at position ${ref.position} of that message.`, details: { reason: 'attachment_not_found' } });
        }
        for (const { position } of found) {
          if (!attachments.some((seen) => seen.messageId === ref.messageId && seen.position === position)) attachments.push({ messageId: ref.messageId, position });
        }
      }
      if (attachments.length > maxComposeAttachments) {
        throw fail.permanent('invalid_parameter', { message: `At most ${maxComposeAttachments} attachments.`, details: { reason: 'too_many_attachments' } });
      }
      let bodies = { bodyText: request.bodyText, bodyHtml: request.bodyHtml };
      const firstRecipient = to[0] ?? cc[0] ?? bcc[0];
      if (request.signature && firstRecipient) {
        const signature = await signatureFor({ memberId, mailboxId: mailbox.id, address: firstRecipient });
        if (signature) bodies = appendSignature(bodies, signature);
      }
      return {
        mailboxId: mailbox.id,
        mailboxAddress: mailbox.address,
        to,
        cc,
        bcc,
        subject: (request.subject ?? context?.subject ?? '').slice(0, 500),
        bodyText: bodies.bodyText,
        bodyHtml: bodies.bodyHtml,
        attachments,
        related: request.answer && original ? { messageId: original.id, relation: request.answer.mode } : null,
      } satisfies PreparedOutbound;
    },

    async create(input) {
      const dedupeKey = run.keyOf(input.effectKey);
      const work = () =>
        inRetriedTransaction(async (tx) => {
          const execution = await tx.execution.findUniqueOrThrow({ where: { id: run.executionId }, select: { workflowId: true } });
          const workflow = await tx.workflow.findUniqueOrThrow({ where: { id: execution.workflowId }, select: { name: true, settings: true } });
          const review = input.mode === 'draft' || !sendsWithoutReview(workflow.settings);
          const { prepared } = input;
          const { item, duplicate } = await createOutbound(
            {
              memberId,
              mailboxId: prepared.mailboxId,
              mode: input.mode,
              origin: 'workflow',
              review,
              to: prepared.to,
              cc: prepared.cc,
              bcc: prepared.bcc,
              subject: prepared.subject,
              bodyText: prepared.bodyText,
              bodyHtml: prepared.bodyHtml,
              attachments: prepared.attachments.map((attachment) => ({ source: 'message' as const, ...attachment })),
              related: prepared.related,
              source: { executionId: run.executionId, workflowId: execution.workflowId, workflowName: workflow.name, nodeId: input.node.id, nodeType: input.node.type },
              dedupeKey,
            },
            tx,
          );
          return {
            itemId: item.id,
            reviewStatus: item.reviewStatus,
            sendStatus: item.sendStatus,
            messageIdHeader: item.messageIdHeader,
            to: item.toAddrs,
            subject: item.subject,
            duplicate,
          } satisfies OutboundOutcome;
        });
      try {
        return await work();
      } catch (error) {
        // A concurrent attempt with the same key made it first: the retry finds it.
        if (isUniqueViolation(error)) return work();
        throw error;
      }
    },
  };
}
