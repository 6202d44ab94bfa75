/**
 * What the AI node types share (not a node module): their retry defaults and effect kind, the
 * optional model parameter, the triggering message as context (and its attachments' text, for
 * ai.extract and ai.classify), the stored record of the call, and the field list that becomes a zod
 * schema (ai.extract, ai.general).
 *
 * Effect kind `none`: the spec's effects table says an AI model call is "repeatable, cost only": it
 * changes nothing outside the run (the cost is recorded as usage), so an attempt cut off mid-call is
 * retried like any other instead of failing `step_effect_uncertain` (what `external` would do), and
 * a replay from the failed step keeps the step's output (the engine's rule for succeeded steps).
 */
import { z } from 'zod';
import type { AiCallInput, AiCallOutcome, AttachmentTexts, EffectRecord } from '../../contract/capabilities';
import { maskSecrets } from '../../expressions';
import type { NodeContext, RetryDefaults } from '../../contract/define-node';
import { attachmentTextBounds } from '../../contract/limits';

/** Spec, Run failure handling: node type (AI nodes): 3 attempts, 10 s delay, 5 min per attempt. */
export const aiRetryDefaults: RetryDefaults = { maxAttempts: 3, delayMs: 10_000, timeoutMs: 300_000 };

export const modelParam = z
  .string()
  .trim()
  .min(1)
  .max(128)
  .optional()
  .describe('A model to use instead of the routing’s (it must be enabled on the AI connection); empty: the instance’s routing for this node’s purpose.');

export const textParam = z
  .string()
  .max(20_000)
  .default('')
  .describe('The text to work on (expressions allowed); empty: the triggering message (subject, sender and body).');

export const attachmentsParam = z
  .enum(['none', 'pdf_and_text'])
  .default('none')
  .describe(
    '`pdf_and_text`: the model also reads the text of the triggering message’s PDF and plain-text attachments, with their names (the first 3; a PDF up to 2 MB, its first 20 pages; 32 KB of text each). `none`: the message or text only.',
  );

export type AttachmentsMode = z.output<typeof attachmentsParam>;

const maxContextChars = 8_000;

/** The triggering message: the run's, else the trigger data's `id` (a webhook may name one). */
function triggeringMessageId(context: NodeContext<unknown>): string | null {
  const trigger = context.trigger ?? {};
  return context.execution.messageId ?? (typeof trigger.id === 'string' ? trigger.id : null);
}

/**
 * What the model reads: the text (`messageContext`), then, with `attachments: pdf_and_text`, the text
 * of the triggering message's readable attachments (`attachmentsContext`). With `none` (the default,
 * and what graphs saved before the parameter mean) nothing is read and the request is unchanged.
 */
export async function modelInput(context: NodeContext<unknown>, params: { text: string; attachments: AttachmentsMode }): Promise<string> {
  const text = await messageContext(context, params.text);
  const attachments = params.attachments === 'pdf_and_text' ? await attachmentsContext(context) : '';
  return attachments === '' ? text : `${text}\n\n${attachments}`;
}

/**
 * The triggering message's PDF and plain-text attachments as text for the model, each under a line
 * naming it; one that could not be read says why, and attachments beyond the bound are counted.
 * Empty when there is no triggering message or it has no readable attachment.
 */
export async function attachmentsContext(context: NodeContext<unknown>): Promise<string> {
  const messageId = triggeringMessageId(context);
  if (!messageId) return '';
  const found = await context.capabilities.mail.attachmentTexts({ messageId, bounds: attachmentTextBounds });
  return found ? attachmentsText(found) : '';
}

/** Pure: the attachments' block of the model's input. */
export function attachmentsText(found: AttachmentTexts): string {
  if (found.read.length === 0) return '';
  const total = found.read.length + found.left;
  const parts = found.read.map((attachment, index) => {
    const head = `=== Attachment ${index + 1} of ${total}: ${attachment.filename} (${attachment.contentType}) ===`;
    const note = attachment.note ? `[${attachment.note}]` : '';
    return [head, attachment.text ?? '', note].filter((line) => line !== '').join('\n');
  });
  if (found.left > 0) parts.push(`[${found.left} more attachment${found.left === 1 ? '' : 's'} not read]`);
  return parts.join('\n\n');
}

/** The text a node works on: its `text` parameter, else the triggering message (and thread, up to `threadMessages`). */
export async function messageContext(context: NodeContext<unknown>, text: string, threadMessages = 1): Promise<string> {
  if (text.trim() !== '') return text.slice(0, 20_000);
  const trigger = context.trigger ?? {};
  const messageId = triggeringMessageId(context);
  const thread = messageId ? await context.capabilities.mail.threadContext({ messageId, limit: threadMessages, maxChars: maxContextChars }) : [];
  if (thread.length > 0) {
    return thread
      .map((message) => [`From: ${fromOf(message.fromName, message.fromEmail)}`, `Date: ${message.receivedAt}`, `Subject: ${message.subject ?? ''}`, '', message.text].join('\n'))
      .join('\n\n---\n\n');
  }
  const from = trigger.from as { name?: unknown; email?: unknown } | undefined;
  const lines = [
    `From: ${fromOf(typeof from?.name === 'string' ? from.name : null, typeof from?.email === 'string' ? from.email : null)}`,
    `Subject: ${typeof trigger.subject === 'string' ? trigger.subject : ''}`,
    '',
    typeof trigger.snippet === 'string' ? trigger.snippet : '',
  ];
  return lines.join('\n').slice(0, maxContextChars);
}

function fromOf(name: string | null, email: string | null): string {
  if (name && email) return `${name} <${email}>`;
  return name ?? email ?? '';
}

/** The call as the step keeps it: prompt and answer (secrets masked), model, usage and cost. */
export function callRecord(input: Pick<AiCallInput, 'purpose' | 'system' | 'messages'>, outcome: AiCallOutcome) {
  return {
    purpose: input.purpose,
    provider: outcome.provider,
    model: outcome.model,
    simulated: outcome.simulated,
    // The engine's masking (secret-looking keys, `{name, value}` pairs); usage's token counts are not secrets.
    prompt: maskSecrets({ system: input.system, messages: input.messages }),
    answer: maskSecrets(outcome.object !== undefined ? outcome.object : outcome.text),
    usage: outcome.usage,
    costUsd: outcome.costUsd,
  };
}

export function callEffect(purpose: string, outcome: AiCallOutcome): EffectRecord {
  if (outcome.simulated) return { kind: 'ai.call', description: `AI ${purpose}: simulated answer, no model called`, simulated: true };
  return { kind: 'ai.call', description: `AI ${purpose}: ${outcome.provider ?? ''} ${outcome.model ?? ''}`.trim() };
}

/** A node's result data: its own fields, the call record under `ai`, and the cost on the step (`costUsd`). */
export function resultData(fields: Record<string, unknown>, input: Pick<AiCallInput, 'purpose' | 'system' | 'messages'>, outcome: AiCallOutcome) {
  return { ...fields, costUsd: outcome.costUsd, ai: callRecord(input, outcome) };
}

// ----- fields (ai.extract, ai.general) --------------------------------------------------------------

const reservedNames = new Set(['__proto__', 'constructor', 'prototype']);

export const fieldTypes = ['string', 'number', 'integer', 'boolean', 'date', 'email', 'string[]'] as const;

export const fieldList = z
  .array(
    z.strictObject({
      name: z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/)
        .refine((name) => !reservedNames.has(name), 'This name is reserved.')
        .describe('The field’s key in the result (letters, digits, underscore; at most 64).'),
      type: z.enum(fieldTypes).default('string').describe('string, number, integer, boolean, date (YYYY-MM-DD), email or string[].'),
      description: z.string().max(500).default('').describe('What the field holds, for the model.'),
      required: z.boolean().default(false).describe('Required fields must be found; the others may be null.'),
    }),
  )
  .min(1)
  .max(50)
  .refine((fields) => new Set(fields.map((field) => field.name)).size === fields.length, 'Field names must be unique.');

export type FieldList = z.output<typeof fieldList>;

function fieldSchema(field: FieldList[number]): z.ZodType {
  const base = (() => {
    switch (field.type) {
      case 'number':
        return z.number();
      case 'integer':
        return z.number().int();
      case 'boolean':
        return z.boolean();
      case 'date':
        return z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
      case 'email':
        return z.string().max(320).regex(/^[^\s@]+@[^\s@]+$/);
      case 'string[]':
        return z.array(z.string().max(2_000)).max(100);
      case 'string':
        return z.string().max(10_000);
    }
  })();
  const described = field.description ? base.describe(field.description) : base;
  return field.required ? described : described.nullable();
}

/** The zod object a field list describes (what the model must answer, validated). */
export function schemaOfFields(fields: FieldList): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const field of fields) Object.defineProperty(shape, field.name, { value: fieldSchema(field), enumerable: true, writable: true, configurable: true });
  return z.strictObject(shape);
}

/** A deterministic stand-in for simulated runs: each field's type's plain placeholder (null when optional). */
export function placeholderOf(fields: FieldList): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const placeholders: Record<FieldList[number]['type'], unknown> = {
    string: 'simulated',
    number: 0,
    integer: 0,
    boolean: false,
    date: '2000-01-01',
    email: 'simulated@example.invalid',
    'string[]': [],
  };
  for (const field of fields) Object.defineProperty(out, field.name, { value: field.required ? placeholders[field.type] : null, enumerable: true, writable: true, configurable: true });
  return out;
}
