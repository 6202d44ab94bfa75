import { iso } from '../../core/http/schemas';
import type { journalOutcomes } from './schemas';

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

export function presentEntry(row: EntryRow, headline: { subject: string | null; fromEmail: string | null } | null) {
  return {
    id: row.id,
    messageId: row.messageId,
    mailboxId: row.mailboxId,
    outcome: row.outcome as Outcome,
    ruleRef: row.ruleRef,
    createdAt: iso(row.createdAt),
    subject: headline?.subject ?? null,
    fromEmail: headline?.fromEmail ?? null,
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
