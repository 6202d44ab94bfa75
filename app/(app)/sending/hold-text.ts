/** What a send hold says to the member: its reason and why, from its details (see server/domains/send-guard). */
import type { Dictionary } from '@/app/i18n';
import type { RouterOutputs } from '@/app/lib/trpc';

export type SendHoldView = RouterOutputs['sendGuard']['listHolds']['items'][number];

const reasons = ['mailbox_hourly_cap', 'workflow_hourly_cap', 'auto_reply_loop', 'repeat_recipient'] as const;

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function holdText(hold: Pick<SendHoldView, 'reason' | 'mailboxAddress' | 'workflowName' | 'details'>, t: Dictionary): { title: string; why: string } {
  const reason = (reasons as readonly string[]).includes(hold.reason) ? hold.reason : 'mailbox_hourly_cap';
  const details = hold.details;
  const facts = {
    mailboxAddress: hold.mailboxAddress ?? '',
    workflowName: hold.workflowName ?? '',
    limit: num(details.limit),
    windowMinutes: num(details.windowMinutes),
    counterpart: str(details.counterpart) || str(details.recipient),
  };
  return { title: t.sendGuard.reasons[reason], why: t.sendGuard.why[reason](facts) };
}
