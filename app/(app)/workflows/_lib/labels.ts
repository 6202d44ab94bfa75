/** Names of trigger types in the interface language. */
import type { Dictionary } from '@/app/i18n';

export function triggerLabel(triggerType: string | null | undefined, t: Dictionary): string {
  if (!triggerType) return t.workflows.noTrigger;
  return t.workflows.triggers[triggerType] ?? triggerType;
}
