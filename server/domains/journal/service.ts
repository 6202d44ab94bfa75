/**
 * The messages journal (spec: messages journal): why a new message did or did not start runs, and
 * the runs it started. Entries are written by mail dispatch (server/engine/dispatch/dispatch-mail.ts).
 */
import type { AuthenticatedActor } from '../../core/auth/access';
import { appError } from '../../core/errors/app-error';
import { decodeCursor, pageOf } from '../../core/http/cursor';
import { mailStartVerdicts } from '../../engine';
import { presentEntry, presentExecution, presentMessageEntry, presentWorkflowVerdict } from './present';
import { db } from '../../core/db';
import {
  findEntries,
  findEntryOfMessage,
  findExecutionsOfMessage,
  findOwnMessage,
  findPublishedMailWorkflows,
  headlinesOf,
  isOwnMailbox,
  workflowNames,
  workflowsStartedOn,
} from './repo';
import type { ListJournalQuery } from './schemas';

/** Executions listed with a message's journal entry. */
const executionsPerMessage = 50;
/** Published mail workflows explained per message. */
const workflowsPerMessage = 100;

export async function messageJournal(actor: AuthenticatedActor, messageId: string) {
  const memberId = actor.member.id;
  if (!(await findOwnMessage(memberId, messageId))) throw appError('request.not_found', { message: 'No such message.' });
  const [entry, executions] = await Promise.all([findEntryOfMessage(memberId, messageId), findExecutionsOfMessage(memberId, messageId, executionsPerMessage)]);
  const names = await workflowNames(executions.map((execution) => execution.workflowId));
  return {
    entry: entry ? presentMessageEntry(entry) : null,
    executions: executions.map((execution) => presentExecution(execution, names.get(execution.workflowId) ?? '')),
    workflows: await workflowVerdicts(memberId, messageId),
  };
}

/** Each published mail workflow: started on the message, or why not (dispatch's own rules, `mailStartVerdicts`). */
async function workflowVerdicts(memberId: string, messageId: string) {
  const [workflows, started] = await Promise.all([findPublishedMailWorkflows(memberId, workflowsPerMessage), workflowsStartedOn(memberId, messageId)]);
  if (workflows.length === 0) return [];
  const verdicts = (await mailStartVerdicts(db(), messageId, workflows)) ?? [];
  return workflows.map((workflow, index) => presentWorkflowVerdict(workflow, started.has(workflow.id), verdicts[index]));
}

/** Newest first; an unreadable cursor gives the first page. Another member's mailbox is a 400 naming `mailboxId`. */
export async function listJournal(actor: AuthenticatedActor, query: ListJournalQuery) {
  const memberId = actor.member.id;
  if (query.mailboxId && !(await isOwnMailbox(memberId, query.mailboxId))) {
    throw appError('request.bad_request', {
      message: 'No such mailbox among yours.',
      details: { in: 'query', issues: [{ path: 'mailboxId', code: 'unknown_mailbox', message: 'No such mailbox among yours.' }] },
    });
  }
  const window = { from: query.from ? new Date(query.from) : undefined, to: query.to ? new Date(query.to) : undefined };
  const rows = await findEntries(memberId, { mailboxId: query.mailboxId, outcome: query.outcome, ...window }, decodeCursor(query.cursor), query.limit + 1);
  const { items, nextCursor } = pageOf(rows, query.limit, (row) => row.createdAt);
  const headlines = await headlinesOf(items.map((item) => item.messageId));
  return { entries: items.map((item) => presentEntry(item, headlines.get(item.messageId) ?? null)), nextCursor };
}
