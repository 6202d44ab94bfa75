/**
 * A workflow's "one run at a time" setting (issue 24 §3), browser-safe: runs that share a key (the
 * conversation, the sender, or the value of an expression over the trigger data) run one after the
 * other, in arrival order, while runs of other keys go on. Optionally, mail of the same key arriving
 * within a window joins one run instead of starting one each (burst coalescing).
 *
 * Stored in the workflow's `settings` JSON (`settings.oneRunAtATime`); the engine reads it at each
 * start (dispatch/serial-key.ts) and admission enforces it (run/admission.ts).
 */
import { z } from 'zod';

export const oneRunAtATimeBounds = {
  /** The burst window: 0 (off) to one hour. */
  coalesceSeconds: { min: 0, max: 3_600 },
  /** A key expression is one inline expression (field paths, `&`, comparisons), like a short parameter. */
  expressionLength: 500,
  /** A coalesced run carries at most this many messages; the next one of the burst starts a run of its own. */
  batchMessages: 20,
  /**
   * …and at most this much trigger data (each message's text may be 64 KB): every step's expressions
   * may read `trigger`, so a run's trigger stays a size a step can copy.
   */
  batchBytes: 512 * 1024,
  /** Longer key values are stored as their SHA-256. */
  keyValueLength: 200,
} as const;

export const serialKeyKinds = ['thread', 'sender', 'expression'] as const;
export type SerialKeyKind = (typeof serialKeyKinds)[number];

export interface OneRunAtATime {
  by: SerialKeyKind;
  /** With `by: expression`: a `{{ … }}` over `trigger` (e.g. `{{ trigger.orderId }}`). */
  expression: string | null;
  /** 0: each mail starts its own run. */
  coalesceSeconds: number;
}

/** The PATCH input's shape (the domain adds the rules between fields and the expression's check). */
export const oneRunAtATimeInput = z.object({
  by: z.enum(serialKeyKinds).describe('`thread`: the conversation of the triggering mail; `sender`: its sender’s address; `expression`: the value of `expression`.'),
  expression: z
    .string()
    .max(oneRunAtATimeBounds.expressionLength)
    .nullable()
    .optional()
    .describe('With `by: expression`: `{{ … }}` over `trigger` made of field paths, `&`, comparisons and `? :` (no function calls), e.g. `{{ trigger.orderId }}` for a webhook’s body field. An empty value, or one the expression cannot compute, runs the run unserialised.'),
  coalesceSeconds: z
    .number()
    .int()
    .min(oneRunAtATimeBounds.coalesceSeconds.min)
    .max(oneRunAtATimeBounds.coalesceSeconds.max)
    .optional()
    .describe('Mail triggers: mail of the same key arriving within this many seconds of the first joins one run (`trigger.batch`). 0 (default): off.'),
});

/** The stored setting read back, tolerant of anything else in the JSON (null: runs are not serialised). */
export function oneRunAtATimeOf(settings: unknown): OneRunAtATime | null {
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) return null;
  const parsed = oneRunAtATimeInput.safeParse((settings as Record<string, unknown>).oneRunAtATime);
  if (!parsed.success) return null;
  const { by, expression, coalesceSeconds } = parsed.data;
  if (by === 'expression' && !expression) return null;
  return { by, expression: by === 'expression' ? (expression ?? null) : null, coalesceSeconds: coalesceSeconds ?? 0 };
}
