import { iso } from '../../core/http/schemas';
import { mailStartReasonOf } from '../../engine';
import type { MailStartVerdict } from '../../engine';
import type { MessageHeadline } from './repo';
import type { journalOutcomes, WorkflowVerdictOutput } from './schemas';

type Outcome = (typeof journalOutcomes)[number];

interface EntryRow {
  id: string;
  messageId: string;
  mailboxId: string;
  outcome: string;
  ruleRef: string | null;
  createdAt: Date;
}

export function presentMessageEntry(row: EntryRow) {
  return { id: row.id, outcome: row.outcome as Outcome, ruleRef: row.ruleRef, createdAt: iso(row.createdAt) };
}

export function presentEntry(row: EntryRow, headline: MessageHeadline | null) {
  return {
    id: row.id,
    messageId: row.messageId,
    mailboxId: row.mailboxId,
    outcome: row.outcome as Outcome,
    ruleRef: row.ruleRef,
    createdAt: iso(row.createdAt),
    subject: headline?.subject ?? null,
    fromEmail: headline?.fromEmail ?? null,
    threadId: headline?.threadId ?? null,
  };
}

export function presentExecution(
  row: { id: string; workflowId: string; status: string; simulated: boolean; createdAt: Date; finishedAt: Date | null },
  workflowName: string,
) {
  return {
    id: row.id,
    workflowId: row.workflowId,
    workflowName,
    status: row.status,
    simulated: row.simulated,
    createdAt: iso(row.createdAt),
    finishedAt: iso(row.finishedAt),
  };
}

/**
 * Why one published mail workflow did or did not start on the message: a real run started for it
 * (`started`), else it is paused, else what its trigger makes of the message now (dispatch's rules).
 * `param` names the trigger parameter a person would change: the filter that did not match, or the
 * inclusion that lets a guarded kind of mail through.
 */
export function presentWorkflowVerdict(
  workflow: { id: string; name: string; paused: boolean },
  started: boolean,
  verdict: MailStartVerdict | undefined,
): WorkflowVerdictOutput {
  const base = { workflowId: workflow.id, workflowName: workflow.name, ruleRef: null, param: null };
  if (started) return { ...base, verdict: 'started' };
  if (workflow.paused) return { ...base, verdict: 'paused' };
  if (!verdict) return { ...base, verdict: 'invalid_trigger' };
  const reason = mailStartReasonOf(verdict);
  return reason ? { ...base, ...reason } : { ...base, verdict: 'would_start' };
}
