/**
 * The live preview of a field's value: evaluated with the engine's own functions
 * (server/engine/expressions, browser-safe) against sample data, so the preview says what a run would
 * compute: a whole-`{{ }}` string gives the value, a string mixing text and `{{ }}` the interpolated
 * text. JSONata is sandboxed (no eval); the engine's budgets apply (time, depth, size).
 */
import { expressionPieces, resolveValueIn } from '@/server/engine/expressions';
import type { ScopeShapes } from './known-fields';

/** What expressions see (server/engine/expressions `ExpressionScope`); any part may be missing in samples. */
export interface SampleScope {
  trigger?: unknown;
  input?: unknown;
  nodes?: Record<string, unknown>;
  execution?: unknown;
  now?: string;
  /** Shapes known without a run (a trigger's declared fields): completion only, never evaluated. */
  shapes?: ScopeShapes;
}

export type Preview =
  /** No `{{ }}` in the text: nothing to evaluate. */
  | { kind: 'literal' }
  | { kind: 'noSample' }
  | { kind: 'value'; value: unknown; text: string; truncated: boolean }
  | { kind: 'error'; message: string };

export const previewMaxChars = 600;

/** The sample scope completed with the parts a run always has. */
export function completeScope(sample: SampleScope): Required<Omit<SampleScope, 'shapes'>> {
  return {
    trigger: sample.trigger ?? null,
    input: sample.input ?? null,
    nodes: sample.nodes ?? {},
    execution: sample.execution ?? { id: 'preview', workflowId: 'preview', simulated: true },
    now: sample.now ?? new Date().toISOString(),
  };
}

/** JSON of a value cut to `max` characters. */
export function previewText(value: unknown, max = previewMaxChars): { text: string; truncated: boolean } {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? 'null';
  } catch {
    text = String(value);
  }
  return text.length > max ? { text: `${text.slice(0, max)}…`, truncated: true } : { text, truncated: false };
}

export function hasSample(sample: SampleScope | null | undefined): sample is SampleScope {
  if (!sample) return false;
  return ['trigger', 'input', 'nodes'].some((key) => {
    const value = (sample as Record<string, unknown>)[key];
    if (value === null || value === undefined) return false;
    return typeof value !== 'object' || Object.keys(value).length > 0;
  });
}

/** Evaluates `text` (a parameter's text with `{{ }}` pieces) against the sample scope. */
export async function previewOf(text: string, sample: SampleScope | null | undefined, path = 'params'): Promise<Preview> {
  if (expressionPieces(text).length === 0) return { kind: 'literal' };
  if (!hasSample(sample)) return { kind: 'noSample' };
  try {
    const value = await resolveValueIn(text, completeScope(sample), path);
    return { kind: 'value', value, ...previewText(value) };
  } catch (error) {
    return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
  }
}
