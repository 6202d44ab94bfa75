/**
 * "Why didn't it run?" in words (pure): a trigger's reason from the API (`{verdict, ruleRef, param}`,
 * server/engine/dispatch/start-reason.ts) as the clause a person reads ("the sender is a mailing list
 * and this workflow skips list mail"), the label that groups it in a summary, and the trigger option
 * that would let that kind of mail in. The reading pane's automation panel and "Try on my mail" share it.
 */
import type { Dictionary } from '@/app/i18n';

type WhyStrings = Dictionary['why'];

export interface TriggerReason {
  verdict: string;
  ruleRef: string | null;
  param: string | null;
}

const guardrailOf = (reason: TriggerReason) => (reason.ruleRef?.startsWith('guardrail:') ? reason.ruleRef.slice('guardrail:'.length) : '');

/** The clause, without its "Not started: " or "Would not run: " lead. */
export function reasonClause(reason: TriggerReason, w: WhyStrings): string {
  switch (reason.verdict) {
    case 'guardrail': {
      const kind = guardrailOf(reason);
      const what = w.kinds[kind];
      const skips = w.skips[kind];
      return what && skips ? w.guardrailClause(what, skips) : w.clauses.unknown;
    }
    case 'filtered':
      return w.filters[reason.param ?? ''] ?? w.clauses.unknown;
    case 'excluded':
      return w.clauses.excluded;
    case 'other_mailbox':
      return w.clauses.other_mailbox;
    case 'paused':
      return w.clauses.paused;
    case 'invalid_trigger':
      return w.clauses.invalid_trigger;
    default:
      return w.clauses.unknown;
  }
}

/** The key that groups reasons in a summary (and names the group's label). */
export function reasonKey(reason: TriggerReason): string {
  if (reason.verdict === 'guardrail') return reason.ruleRef ?? 'guardrail';
  if (reason.verdict === 'filtered') return `filtered:${reason.param ?? ''}`;
  return reason.verdict;
}

export function reasonLabel(reason: TriggerReason, w: WhyStrings): string {
  return w.eval.labels[reasonKey(reason)] ?? reasonClause(reason, w);
}

/** The trigger option that lets this kind of mail in (`includeMailingLists`…), or null. */
export function inclusionOf(reason: TriggerReason): string | null {
  return reason.verdict === 'guardrail' && reason.param?.startsWith('include') ? reason.param : null;
}

/** The code a person can quote (in the details): the rule and the parameter. */
export function reasonCode(reason: TriggerReason): string {
  return [reason.verdict, reason.ruleRef, reason.param].filter((part): part is string => Boolean(part)).join(' · ');
}
