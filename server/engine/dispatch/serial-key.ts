/**
 * The key a run is started under when its workflow runs one at a time per key (contract/one-run-at-a-time.ts):
 * `thread:<thread id>` (the triggering mail's conversation in the mirror), `sender:<address>` (lower
 * case), or `expr:<value>` (the key expression over the trigger data). Null: the run is not serialised
 * (no setting, a key that does not apply to the trigger, or an expression that gives nothing).
 *
 * Why key expressions are inline-only (field paths, `&`, comparisons, `? :`, no call): the key is
 * computed while the run starts, in the web process for a webhook and in the dispatcher's
 * transaction for mail, where no sandbox thread runs; an inline expression's cost follows the bounded
 * trigger data it reads (the sandbox's own rule, expressions/sandbox/scope-needs.ts).
 */
import { createHash } from 'node:crypto';
import { compileError, expressionPieces } from '../expressions';
import { isInlineText, resolveInlineText } from '../expressions/sandbox';
import { oneRunAtATimeBounds, type OneRunAtATime } from '../contract/one-run-at-a-time';

/** Why a key expression cannot be used (`reason` for a client to word it, `message` in English), or null when it can. */
export function serialKeyExpressionProblem(text: string): { reason: 'no_expression' | 'invalid' | 'not_inline'; message: string } | null {
  const pieces = expressionPieces(text);
  if (pieces.length === 0) return { reason: 'no_expression', message: 'Write the key as an expression between {{ and }}, for example {{ trigger.orderId }}.' };
  for (const piece of pieces) {
    const problem = compileError(piece.source);
    if (problem) return { reason: 'invalid', message: problem };
  }
  if (!isInlineText(text)) {
    return { reason: 'not_inline', message: 'A key expression may only read fields of the trigger and combine them (&, comparisons, ? :): no function calls, filters or loops.' };
  }
  return null;
}

/** The mail facts a `thread` or `sender` key is read from (absent for a webhook's run). */
export interface SerialKeyMail {
  threadId: string | null;
  messageIdHeader: string | null;
  fromEmail: string | null;
}

/** The key for a run about to start, or null when it runs unserialised. */
export async function serialKeyOf(setting: OneRunAtATime | null, triggerData: unknown, mail?: SerialKeyMail): Promise<string | null> {
  if (!setting) return null;
  switch (setting.by) {
    case 'thread': {
      if (!mail) return null;
      // A message the mirror has not threaded is its own conversation.
      if (mail.threadId) return `thread:${mail.threadId}`;
      return mail.messageIdHeader ? `message:${bounded(mail.messageIdHeader)}` : null;
    }
    case 'sender': {
      const address = mail?.fromEmail?.trim().toLowerCase();
      return address ? `sender:${bounded(address)}` : null;
    }
    case 'expression':
      return setting.expression ? expressionKey(setting.expression, triggerData) : null;
  }
}

async function expressionKey(text: string, triggerData: unknown): Promise<string | null> {
  // Checked when the setting was saved; checked again because a stored setting is input too.
  if (serialKeyExpressionProblem(text) !== null) return null;
  let value: unknown;
  try {
    value = await resolveInlineText(text, { trigger: triggerData }, 'settings.oneRunAtATime.expression');
  } catch {
    // The expression failed on this trigger's data (a type error): the run is not held back for it.
    return null;
  }
  // Text pieces among the expression give text; a whole expression may give a number or an object.
  const keyText = typeof value === 'string' ? value : value === null || value === undefined ? '' : JSON.stringify(value);
  return keyText.trim() === '' ? null : `expr:${bounded(keyText)}`;
}

/** Long values are stored as their hash: the key is compared, never shown. */
function bounded(value: string): string {
  return value.length <= oneRunAtATimeBounds.keyValueLength ? value : `sha256:${createHash('sha256').update(value).digest('hex')}`;
}
