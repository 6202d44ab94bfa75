/**
 * Thread actions (POST /api/v1/threads/{id}/actions): one MailOperation per message concerned,
 * applied to the mirror at once, the thread's columns recomputed and the runner's
 * `mail.apply-operations` job enqueued, all in one transaction; the runner then applies the
 * operations to the real mailbox. The same `clientToken` again answers the same operations with
 * `duplicate: true` and changes nothing. What each action does: ./plan.ts.
 */
import { randomUUID } from 'node:crypto';
import type { AuthenticatedActor } from '../../../../core/auth/access';
import { db, type Tx } from '../../../../core/db';
import { inRetriedTransaction } from '../../../../core/db/retry';
import { appError } from '../../../../core/errors/app-error';
import { jobKeys } from '../../../../core/jobs/catalogue';
import { enqueue } from '../../../../core/jobs/enqueue';
import { emitToMember } from '../../../../core/realtime/emit';
import { canDeletePermanently } from '../../providers';
import { planThreadAction, type PlannedOperation, type ThreadAction } from './plan';
import { recomputeThreads } from '../../../../mail/threads/attach';
import {
  foldersOfMailbox,
  insertOperations,
  lockMemberThread,
  mailboxOfMessage,
  memberMessageForAction,
  operationsOfToken,
  originFolders,
  removeMessages,
  threadMessagesForAction,
  updateLabels,
  updateMessagesFields,
  type ActionMessage,
} from './repo';
import type { ThreadActionInput } from './schemas';

/** A thread of this many messages or more is refused (spec, Limits). */
export const maxThreadMessages = 1000;

interface ActionAnswer {
  threadId: string;
  ops: { messageId: string; opId: string; duplicate: boolean }[];
}

async function applyToMirror(tx: Tx, mailboxId: string, planned: PlannedOperation[], labels: { add: string[]; remove: string[] } | undefined) {
  const groups = new Map<string, { data: { seen?: boolean; flagged?: boolean; folderKey?: string }; ids: string[] }>();
  for (const operation of planned) {
    if (operation.remove) continue;
    const data = {
      ...(operation.seen !== undefined ? { seen: operation.seen } : {}),
      ...(operation.flagged !== undefined ? { flagged: operation.flagged } : {}),
      ...(operation.toFolderKey !== undefined ? { folderKey: operation.toFolderKey } : {}),
    };
    if (Object.keys(data).length === 0) continue;
    const key = JSON.stringify(data);
    const group = groups.get(key) ?? { data, ids: [] };
    group.ids.push(operation.messageId);
    groups.set(key, group);
  }
  for (const { data, ids } of groups.values()) await updateMessagesFields(tx, ids, data);
  const kept = planned.filter((operation) => !operation.remove).map((operation) => operation.messageId);
  if (labels && (labels.add.length || labels.remove.length)) await updateLabels(tx, kept, labels.add, labels.remove);
  await removeMessages(tx, mailboxId, planned.filter((operation) => operation.remove).map((operation) => operation.messageId));
}

function duplicateAnswer(threadId: string, existing: Awaited<ReturnType<typeof operationsOfToken>>, action: string): ActionAnswer {
  if (existing.some((operation) => operation.threadId !== threadId || operation.action !== action)) {
    throw appError('webmail.bad_request', {
      message: 'This clientToken was already used for another request.',
      details: { reason: 'client_token_reused' },
    });
  }
  return { threadId, ops: existing.map((operation) => ({ messageId: operation.messageId, opId: operation.id, duplicate: true })) };
}

export async function actOnThread(actor: AuthenticatedActor, input: ThreadActionInput): Promise<ActionAnswer> {
  const memberId = actor.member.id;
  const actionName = input.action ?? 'labels';
  // Tried again on a deadlock: the runner's sync writes the same mirror rows in its own order.
  return inRetriedTransaction(async (tx) => {
    const thread = await lockMemberThread(tx, memberId, input.id);
    const existing = await operationsOfToken(tx, memberId, input.clientToken);
    if (existing.length > 0) return duplicateAnswer(input.id, existing, actionName);
    if (!thread) throw appError('webmail.thread_not_found');
    const messages = await threadMessagesForAction(tx, thread.id, maxThreadMessages);
    if (messages.length === 0) throw appError('webmail.message_not_found', { message: 'This thread has no messages left.' });
    if (messages.length >= maxThreadMessages) throw appError('webmail.thread_too_large', { details: { limit: maxThreadMessages } });
    if (thread.status === 'disconnected') throw appError('webmail.unsupported_action', { details: { reason: 'mailbox_disconnected' } });

    const folders = await foldersOfMailbox(tx, thread.mailbox_id);
    const cameFrom = input.action === 'restore' || input.action === 'notSpam' ? await originFolders(tx, messages.map((message) => message.id)) : new Map<string, string>();
    const planned = planThreadAction(input, { messages, folders, canDeletePermanently: canDeletePermanently(thread.provider), cameFrom });

    const ops = planned.map((operation) => ({ ...operation, opId: randomUUID() }));
    await insertOperations(
      tx,
      ops.map((operation) => ({
        id: operation.opId,
        memberId,
        mailboxId: thread.mailbox_id,
        messageId: operation.messageId,
        threadId: thread.id,
        action: operation.action,
        params: operation.params,
        clientToken: input.clientToken,
      })),
    );
    await applyToMirror(tx, thread.mailbox_id, planned, input.labels);
    await recomputeThreads(tx, [thread.id]);
    await enqueue('mail.apply-operations', { mailboxId: thread.mailbox_id }, { jobKey: jobKeys.operations(thread.mailbox_id) }, tx);
    const moved = planned.some((operation) => operation.toFolderKey !== undefined || operation.remove);
    await emitToMember(memberId, 'mail.changed', { mailboxId: thread.mailbox_id, threadIds: [thread.id], reason: moved ? 'moved' : 'flags' }, tx);
    ops.sort((a, b) => (a.messageId < b.messageId ? -1 : a.messageId > b.messageId ? 1 : 0));
    return { threadId: thread.id, ops: ops.map((operation) => ({ messageId: operation.messageId, opId: operation.opId, duplicate: false })) };
  });
}

export interface MessageActionInput {
  messageId: string;
  /** Absent: labels only. */
  action?: ThreadAction;
  folder?: string;
  labels?: { add: string[]; remove: string[] };
  /** Names the request: the same token again answers the first operation with `duplicate: true`. */
  clientToken: string;
}

/** A message's state as an undo compares it (the fields a message action changes). */
export interface MessageState {
  folderKey: string;
  seen: boolean;
  flagged: boolean;
  labels: string[];
}

/** What a single-message action answers; `undo` is its record for undoing it (absent on a repeat). */
export interface MessageActionAnswer {
  operationId: string;
  duplicate: boolean;
  undo?: { v: 1; messageId: string; mailboxId: string; messageIdHeader: string | null; before: MessageState; after: MessageState };
}

/** The labels after adding and removing, in the mirror's order (existing first, then the added ones; ./repo.ts updateLabels). */
function labelsAfter(labels: string[], add: string[], remove: string[]): string[] {
  return [...new Set([...labels, ...add])].filter((label) => !remove.includes(label));
}

/**
 * The message before and after its action, as the mirror writes it (issue 24 §4: a run's mailbox
 * changes are undone from these records). A removal (permanent deletion) records no `after`: nothing
 * can be put back.
 */
function undoRecordOf(message: ActionMessage, planned: PlannedOperation[], labels: { add: string[]; remove: string[] } | undefined): MessageActionAnswer['undo'] {
  const operation = planned.find((candidate) => candidate.messageId === message.id);
  if (!operation || operation.remove) return undefined;
  const before: MessageState = { folderKey: message.folderKey, seen: message.seen, flagged: message.flagged, labels: [...message.labels] };
  const after: MessageState = {
    folderKey: operation.toFolderKey ?? before.folderKey,
    seen: operation.seen ?? before.seen,
    flagged: operation.flagged ?? before.flagged,
    labels: labels ? labelsAfter(before.labels, labels.add, labels.remove) : [...before.labels],
  };
  return { v: 1, messageId: message.id, mailboxId: message.mailboxId, messageIdHeader: message.messageIdHeader, before, after };
}

/** The message an action concerns and its plan, read as the action is decided (no write). */
async function planMessageAction(tx: Reader, input: Omit<MessageActionInput, 'clientToken'>, message: ActionMessage | null) {
  if (!message) throw appError('webmail.message_not_found');
  const mailbox = await mailboxOfMessage(tx, message.mailboxId);
  if (mailbox.status === 'disconnected') throw appError('webmail.unsupported_action', { details: { reason: 'mailbox_disconnected' } });
  const folders = await foldersOfMailbox(tx, message.mailboxId);
  return planThreadAction(
    { action: input.action, folder: input.folder, labels: input.labels },
    { messages: [message], folders, canDeletePermanently: canDeletePermanently(mailbox.provider), cameFrom: new Map() },
  );
}

type Reader = Pick<Tx, 'mailMessage' | 'mailbox' | 'mailFolder'>;

/**
 * A message's action checked, not done: the reads and the plan of actOnMessage, so it throws what
 * actOnMessage would for the mirror as it is now (the message is not the member's, its mailbox is
 * disconnected, the folder does not exist, nothing to do). A workflow's test run calls it.
 */
export async function checkMessageAction(memberId: string, input: Omit<MessageActionInput, 'clientToken'>): Promise<void> {
  await planMessageAction(db(), input, await memberMessageForAction(db(), memberId, input.messageId));
}

/**
 * One message's action (the workflow engine's mail nodes): the same plan, mirror writes, thread
 * recompute, `mail.apply-operations` job and live event as a thread action, limited to that message,
 * in one transaction. Errors are the thread action's (`webmail.message_not_found`,
 * `webmail.unsupported_action`, …).
 */
export async function actOnMessage(memberId: string, input: MessageActionInput): Promise<MessageActionAnswer> {
  const actionName = input.action ?? 'labels';
  // Tried again on a deadlock (the runner's sync writes the same mirror rows in its own order): the
  // whole transaction rolled back, and the client token keeps a second try from acting twice.
  return inRetriedTransaction(async (tx) => {
    const message = await memberMessageForAction(tx, memberId, input.messageId);
    if (message?.threadId) await lockMemberThread(tx, memberId, message.threadId);
    const existing = await operationsOfToken(tx, memberId, input.clientToken);
    if (existing.length > 0) {
      if (existing.some((operation) => operation.messageId !== input.messageId || operation.action !== actionName)) {
        throw appError('webmail.bad_request', { message: 'This clientToken was already used for another request.', details: { reason: 'client_token_reused' } });
      }
      return { operationId: existing[0].id, duplicate: true };
    }
    const planned = await planMessageAction(tx, input, message);
    if (!message) throw appError('webmail.message_not_found');
    const operationId = randomUUID();
    await insertOperations(
      tx,
      planned.map((operation, index) => ({
        id: index === 0 ? operationId : randomUUID(),
        memberId,
        mailboxId: message.mailboxId,
        messageId: operation.messageId,
        threadId: message.threadId,
        action: operation.action,
        params: operation.params,
        clientToken: input.clientToken,
      })),
    );
    await applyToMirror(tx, message.mailboxId, planned, input.labels);
    const undo = undoRecordOf(message, planned, input.labels);
    if (message.threadId) await recomputeThreads(tx, [message.threadId]);
    await enqueue('mail.apply-operations', { mailboxId: message.mailboxId }, { jobKey: jobKeys.operations(message.mailboxId) }, tx);
    const moved = planned.some((operation) => operation.toFolderKey !== undefined || operation.remove);
    await emitToMember(memberId, 'mail.changed', { mailboxId: message.mailboxId, threadIds: message.threadId ? [message.threadId] : [], reason: moved ? 'moved' : 'flags' }, tx);
    return { operationId, duplicate: false, undo };
  });
}
