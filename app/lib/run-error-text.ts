/**
 * A run's error as the interface shows it. A table's refusal (`tables.write_refused`, also in a
 * test run) carries its problems in `details.problems` [{column, reason, value}]: they are put in
 * words in the interface language, naming the column, the value and why. Any other error shows
 * the engine's own sentence, which names the parameter concerned.
 */
import type { Dictionary } from '@/app/i18n';

interface RunError {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

interface Problem {
  column: string;
  reason: string;
  value: string | null;
}

function problemsOf(details: Record<string, unknown> | undefined): Problem[] {
  const list = details && Array.isArray(details.problems) ? details.problems : [];
  return list.flatMap((entry: unknown) => {
    if (!entry || typeof entry !== 'object') return [];
    const { column, reason, value } = entry as Record<string, unknown>;
    if (typeof column !== 'string' || typeof reason !== 'string') return [];
    return [{ column, reason, value: typeof value === 'string' ? value : null }];
  });
}

export function runErrorText(error: RunError, t: Dictionary): string {
  const [first, ...others] = problemsOf(error.details);
  if (!first) return error.message;
  const reasons = t.tables.problems as Record<string, string>;
  const why = Object.hasOwn(reasons, first.reason) ? reasons[first.reason]! : error.message;
  return t.tables.cellRefused(first.column, first.value, why, others.length);
}
