/**
 * What the mail action nodes share: the message acted on (the `messageId` param, else the run's
 * triggering message; neither → `mail.mailbox_required`) and the keyed operation. Not a node module.
 */
import { z } from 'zod';
import type { NodeContext, NodeResult } from '../../contract/define-node';
import type { MailCapability } from '../../contract/capabilities';
import { fail } from '../../contract/failures';

export const messageIdParam = z
  .string()
  .min(1)
  .max(100)
  .optional()
  .describe('The message to act on (a message id or an expression); default: the message that started the run.');

export function targetMessage(context: Pick<NodeContext<unknown>, 'execution'>, messageId: string | undefined): string {
  const chosen = messageId && messageId.trim() !== '' ? messageId.trim() : context.execution.messageId;
  if (!chosen) throw fail.permanent('mail.mailbox_required');
  return chosen;
}

export async function operate(
  context: Pick<NodeContext<unknown>, 'execution' | 'capabilities' | 'effect'>,
  input: Omit<Parameters<MailCapability['operate']>[0], 'effectKey'>,
  description: string,
): Promise<NodeResult> {
  const outcome = await context.effect(
    { key: 'op', kind: `mail.${input.action}`, description },
    () => context.capabilities.mail.operate({ ...input, effectKey: 'op' }),
    // A test run checks the operation against the mirror as the live one would (same code and message).
    async () => {
      await context.capabilities.mail.check(input);
      return { operationId: 'simulated', duplicate: false };
    },
  );
  return {
    // The effect's result keeps the undo record (issue 24 §4); the step's data stays what it was.
    data: { messageId: input.messageId, action: input.action, operationId: outcome.operationId, duplicate: outcome.duplicate },
    effects: [{ kind: `mail.${input.action}`, description, ...(context.execution.simulated ? { simulated: true } : {}) }],
  };
}
