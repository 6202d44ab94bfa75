/**
 * "Why didn't it start?" as the API says it: a mail trigger's verdict on a message (dispatch-mail.ts
 * `mailStartVerdicts`) turned into `{verdict, ruleRef, param}`. The message journal answers it per
 * published workflow and evaluation runs per case, so both say the same thing the same way.
 *
 * `param` names the trigger parameter a person would change: the filter that did not match, the
 * option that lets a guarded kind of mail in (null for the loop guard, which nothing lets in), or
 * `mailboxIds` for a trigger watching other mailboxes.
 */
import { guardrailInclusion } from '../nodes/triggers/mail-trigger.node.ts';
import type { MailStartVerdict } from './dispatch-mail';

export const notStartedVerdicts = ['excluded', 'guardrail', 'filtered', 'other_mailbox', 'invalid_trigger'] as const;
export type NotStartedVerdict = (typeof notStartedVerdicts)[number];

export interface MailStartReason {
  verdict: NotStartedVerdict;
  ruleRef: string | null;
  param: string | null;
}

/** The reason a trigger that does not match gives; null for a match. */
export function mailStartReasonOf(verdict: MailStartVerdict): MailStartReason | null {
  switch (verdict.kind) {
    case 'match':
      return null;
    case 'excluded':
      return { verdict: 'excluded', ruleRef: verdict.ruleRef, param: null };
    case 'guardrail':
      return { verdict: 'guardrail', ruleRef: `guardrail:${verdict.guardrail}`, param: guardrailInclusion[verdict.guardrail] };
    case 'filtered':
      return { verdict: 'filtered', ruleRef: null, param: verdict.filter };
    case 'other_mailbox':
      return { verdict: 'other_mailbox', ruleRef: null, param: 'mailboxIds' };
    case 'invalid_trigger':
      return { verdict: 'invalid_trigger', ruleRef: null, param: null };
  }
}
