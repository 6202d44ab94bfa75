/**
 * Undoing a run's mailbox changes (issue 24 §4), decided. Pure: the service reads the run's effect
 * records and, as they are now, the messages and review items those name; this decides.
 *
 * Terminology: an *effect record* is one row of `execution_effects` (what one step did outside its run);
 * a *mail action* record carries, in its result, the message before and after the operation
 * (`MailUndoRecord`, written by the webmail's single-message action); an *item* is one record's undo:
 * the inverse action and whether it will be made.
 *
 * Rules:
 * - Records are undone newest first. The state each one compares against is the message as it is now,
 *   changed by the undos already decided (a move undone puts the message back where an earlier label
 *   of the run expects it).
 * - A message change is undone only if the message is still as the run left it: in the folder the run
 *   left it in (else `moved_since`), with the read mark, flag and labels the run set still set (else
 *   `read_changed`, `flag_changed`, `labels_changed`). A skipped record leaves the state as it is, so the
 *   run's earlier changes of that message are skipped too (the message is not where they left it).
 * - A record without its before and after (older runs; a repeat that found the operation made) is
 *   `not_recorded`; a change that changed nothing (flagging a flagged message) is `no_change`; a move
 *   whose folder of origin is gone is `folder_gone`; a message no longer mirrored is `message_gone`,
 *   unless it is found again by its Message-ID in its mailbox (another mail client moved it, and IMAP
 *   gave it a new identity): `moved_since`.
 * - Drafts and sends (`mail.draft`, `mail.send`): an item still waiting for review (pending, snoozed) is
 *   discarded (rejected: out of review, its Drafts copy removed); one sent, sending, of unknown outcome
 *   or leaving without review is listed in `sent` (a send cannot be undone); one already rejected or
 *   gone is `draft_gone`, one whose send failed for good `send_failed`.
 * - Other effects (table writes, HTTP calls, notifications, AI calls) are not mailbox changes: counted
 *   in `others`, never undone.
 * - `done` names records an interrupted undo already made (the next call takes it over): they count as
 *   made and their state as put back, without comparing (the message now is as the undo left it).
 */
import type { MessageState } from '../../mail';

export type UndoSkipReason =
  | 'not_recorded'
  | 'message_gone'
  | 'moved_since'
  | 'read_changed'
  | 'flag_changed'
  | 'labels_changed'
  | 'folder_gone'
  | 'no_change'
  | 'draft_gone'
  | 'send_failed';

export const undoSkipReasons: readonly UndoSkipReason[] = [
  'not_recorded',
  'message_gone',
  'moved_since',
  'read_changed',
  'flag_changed',
  'labels_changed',
  'folder_gone',
  'no_change',
  'draft_gone',
  'send_failed',
];

/** The kinds of the mail action nodes' effects (`mail.<action>`, server/engine/nodes/mail/act-on-message.ts). */
export const mailActionKinds: ReadonlySet<string> = new Set([
  'mail.markRead',
  'mail.markUnread',
  'mail.flag',
  'mail.unflag',
  'mail.archive',
  'mail.trash',
  'mail.move',
  'mail.label',
]);

/** The engine's own records in the effect store (the runs a step started, a wait for room): not effects of a node. */
const engineKinds: ReadonlySet<string> = new Set(['loop_iteration', 'sub_workflow', 'member_run_limit']);

/** The kinds of the outbound nodes' effects (server/engine/nodes/mail/outbound.ts). */
export const outboundKinds: ReadonlySet<string> = new Set(['mail.draft', 'mail.send']);

export interface UndoEffectRecord {
  effectKey: string;
  executionId: string;
  nodeId: string;
  kind: string;
  description: string;
  result: unknown;
}

export interface UndoMessageState extends MessageState {
  mailboxId: string;
}

export interface UndoOutboundState {
  id: string;
  reviewStatus: string;
  sendStatus: string;
  to: string[];
  subject: string;
}

export type MessageUndoAction = 'move' | 'markRead' | 'markUnread' | 'flag' | 'unflag';

/** What undoing one record does: a single-message action of the webmail, or discarding a draft. */
export type UndoAction =
  | { kind: 'message'; messageId: string; action?: MessageUndoAction; folder?: string; labels?: { add: string[]; remove: string[] } }
  | { kind: 'discard_draft'; outboundId: string };

export interface UndoItem {
  effectKey: string;
  executionId: string;
  nodeId: string;
  /** The effect's kind (`mail.move`, `mail.draft`…). */
  effect: string;
  description: string;
  messageId: string | null;
  outboundId: string | null;
  /** Null when skipped before an action could be named (no record, message gone). */
  action: UndoAction | null;
  status: 'will_undo' | 'skip';
  reason: UndoSkipReason | null;
}

export interface SentItem {
  effectKey: string;
  executionId: string;
  nodeId: string;
  effect: string;
  outboundId: string;
  to: string[];
  subject: string;
  sendStatus: string;
}

export interface UndoWorld {
  messages: ReadonlyMap<string, UndoMessageState>;
  /** Folder keys of each mailbox concerned. */
  folders: ReadonlyMap<string, ReadonlySet<string>>;
  outbound: ReadonlyMap<string, UndoOutboundState>;
  /**
   * Messages no longer mirrored under their id but found again by their Message-ID in their mailbox
   * (another mail client moved them: IMAP gives a moved message a new identity), by id: where they are.
   */
  relocated?: ReadonlyMap<string, string>;
  done?: ReadonlySet<string>;
}

export interface UndoPlan {
  /** Newest first: the order they are made in. */
  items: UndoItem[];
  sent: SentItem[];
  /** Effects that are not mailbox changes (never undone). */
  others: number;
}

interface MailRecord {
  messageId: string;
  mailboxId: string;
  messageIdHeader: string | null;
  before: MessageState;
  after: MessageState;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function stateOf(value: unknown): MessageState | null {
  if (!isObject(value)) return null;
  const { folderKey, seen, flagged, labels } = value;
  if (typeof folderKey !== 'string' || typeof seen !== 'boolean' || typeof flagged !== 'boolean') return null;
  if (!Array.isArray(labels) || !labels.every((label) => typeof label === 'string')) return null;
  return { folderKey, seen, flagged, labels: labels as string[] };
}

/** The undo record in a mail action's result, or null (an older record, or a repeat). */
export function mailRecordOf(result: unknown): MailRecord | null {
  if (!isObject(result) || !isObject(result.undo)) return null;
  const { v, messageId, mailboxId, messageIdHeader, before, after } = result.undo;
  if (v !== 1 || typeof messageId !== 'string' || typeof mailboxId !== 'string') return null;
  const beforeState = stateOf(before);
  const afterState = stateOf(after);
  const header = typeof messageIdHeader === 'string' ? messageIdHeader : null;
  return beforeState && afterState ? { messageId, mailboxId, messageIdHeader: header, before: beforeState, after: afterState } : null;
}

function messageIdOf(result: unknown): string | null {
  if (isObject(result) && isObject(result.undo) && typeof result.undo.messageId === 'string') return result.undo.messageId;
  return null;
}

const added = (from: string[], to: string[]) => to.filter((label) => !from.includes(label));

/** The inverse of one recorded change: the webmail action (and labels) that puts `before` back. */
function inverseOf(record: MailRecord): Omit<Extract<UndoAction, { kind: 'message' }>, 'kind' | 'messageId'> | null {
  const { before, after } = record;
  const labels = { add: added(after.labels, before.labels), remove: added(before.labels, after.labels) };
  const hasLabels = labels.add.length + labels.remove.length > 0;
  let action: MessageUndoAction | undefined;
  if (before.folderKey !== after.folderKey) action = 'move';
  else if (before.seen !== after.seen) action = before.seen ? 'markRead' : 'markUnread';
  else if (before.flagged !== after.flagged) action = before.flagged ? 'flag' : 'unflag';
  if (!action && !hasLabels) return null;
  return { ...(action ? { action } : {}), ...(action === 'move' ? { folder: before.folderKey } : {}), ...(hasLabels ? { labels } : {}) };
}

/** Why the message is no longer as the run left it, or null when it is. */
function driftOf(record: MailRecord, now: MessageState): UndoSkipReason | null {
  const { before, after } = record;
  if (now.folderKey !== after.folderKey) return 'moved_since';
  if (before.seen !== after.seen && now.seen !== after.seen) return 'read_changed';
  if (before.flagged !== after.flagged && now.flagged !== after.flagged) return 'flag_changed';
  const stillAdded = added(before.labels, after.labels).every((label) => now.labels.includes(label));
  const stillRemoved = added(after.labels, before.labels).every((label) => !now.labels.includes(label));
  return stillAdded && stillRemoved ? null : 'labels_changed';
}

/** The message after the inverse: the changed fields back to `before`, the run's labels taken back. */
function restored(now: UndoMessageState, record: MailRecord): UndoMessageState {
  const { before, after } = record;
  const put = added(after.labels, before.labels);
  const taken = added(before.labels, after.labels);
  return {
    mailboxId: now.mailboxId,
    folderKey: before.folderKey !== after.folderKey ? before.folderKey : now.folderKey,
    seen: before.seen !== after.seen ? before.seen : now.seen,
    flagged: before.flagged !== after.flagged ? before.flagged : now.flagged,
    labels: [...new Set([...now.labels, ...put])].filter((label) => !taken.includes(label)),
  };
}

function base(record: UndoEffectRecord): Pick<UndoItem, 'effectKey' | 'executionId' | 'nodeId' | 'effect' | 'description'> {
  return { effectKey: record.effectKey, executionId: record.executionId, nodeId: record.nodeId, effect: record.kind, description: record.description };
}

function planMessage(record: UndoEffectRecord, state: Map<string, UndoMessageState>, world: UndoWorld): UndoItem {
  const mail = mailRecordOf(record.result);
  const skip = (reason: UndoSkipReason, messageId: string | null, action: UndoAction | null = null): UndoItem => ({
    ...base(record),
    messageId,
    outboundId: null,
    action,
    status: 'skip',
    reason,
  });
  if (!mail) return skip('not_recorded', messageIdOf(record.result));
  const inverse = inverseOf(mail);
  if (!inverse) return skip('no_change', mail.messageId);
  const action: UndoAction = { kind: 'message', messageId: mail.messageId, ...inverse };
  const now = state.get(mail.messageId);
  if (!now) return skip(world.relocated?.has(mail.messageId) ? 'moved_since' : 'message_gone', mail.messageId, action);
  if (!world.done?.has(record.effectKey)) {
    const drift = driftOf(mail, now);
    if (drift) return skip(drift, mail.messageId, action);
    if (inverse.folder !== undefined && !world.folders.get(now.mailboxId)?.has(inverse.folder)) return skip('folder_gone', mail.messageId, action);
  }
  state.set(mail.messageId, restored(now, mail));
  return { ...base(record), messageId: mail.messageId, outboundId: null, action, status: 'will_undo', reason: null };
}

const sentStatuses = new Set(['done', 'running', 'unknown']);
const openReviewStatuses = new Set(['pending', 'snoozed']);

function outboundIdOf(result: unknown): string | null {
  return isObject(result) && typeof result.itemId === 'string' ? result.itemId : null;
}

function planOutbound(record: UndoEffectRecord, world: UndoWorld): UndoItem | SentItem {
  const outboundId = outboundIdOf(record.result);
  const item = (status: UndoItem['status'], reason: UndoSkipReason | null, action: UndoAction | null): UndoItem => ({
    ...base(record),
    messageId: null,
    outboundId,
    action,
    status,
    reason,
  });
  if (!outboundId) return item('skip', 'not_recorded', null);
  const current = world.outbound.get(outboundId);
  if (!current) return item('skip', 'draft_gone', null);
  const discard: UndoAction = { kind: 'discard_draft', outboundId };
  if (world.done?.has(record.effectKey)) return item('will_undo', null, discard);
  // Sent, sending, or on its way without review (its undo window is the webmail's, not a run's).
  if (sentStatuses.has(current.sendStatus) || current.reviewStatus === 'sent' || (current.reviewStatus === 'none' && ['pending', 'held'].includes(current.sendStatus))) {
    const { effectKey, executionId, nodeId, effect } = base(record);
    return { effectKey, executionId, nodeId, effect, outboundId, to: current.to, subject: current.subject, sendStatus: current.sendStatus };
  }
  if (openReviewStatuses.has(current.reviewStatus)) return item('will_undo', null, discard);
  return item('skip', current.sendStatus === 'failed' ? 'send_failed' : 'draft_gone', null);
}

/** The undo of a run's effect records, given in the order they were made (oldest first). */
export function planUndo(records: readonly UndoEffectRecord[], world: UndoWorld): UndoPlan {
  const state = new Map(world.messages);
  const items: UndoItem[] = [];
  const sent: SentItem[] = [];
  let others = 0;
  for (const record of [...records].reverse()) {
    if (mailActionKinds.has(record.kind)) items.push(planMessage(record, state, world));
    else if (outboundKinds.has(record.kind)) {
      const planned = planOutbound(record, world);
      if ('status' in planned) items.push(planned);
      else sent.push(planned);
    } else if (!engineKinds.has(record.kind)) others += 1;
  }
  return { items, sent, others };
}

/** The messages, mailboxes and review items a run's records name (what the service reads before planning). */
export function namedByRecords(records: readonly UndoEffectRecord[]): {
  messageIds: string[];
  mailboxIds: string[];
  outboundIds: string[];
  /** Each message's mailbox and Message-ID (to find it again if it is no longer mirrored under its id). */
  headers: Map<string, { mailboxId: string; messageIdHeader: string }>;
} {
  const headers = new Map<string, { mailboxId: string; messageIdHeader: string }>();
  const messageIds = new Set<string>();
  const mailboxIds = new Set<string>();
  const outboundIds = new Set<string>();
  for (const record of records) {
    if (mailActionKinds.has(record.kind)) {
      const mail = mailRecordOf(record.result);
      if (mail) {
        messageIds.add(mail.messageId);
        mailboxIds.add(mail.mailboxId);
        if (mail.messageIdHeader) headers.set(mail.messageId, { mailboxId: mail.mailboxId, messageIdHeader: mail.messageIdHeader });
      }
    } else if (outboundKinds.has(record.kind)) {
      const id = outboundIdOf(record.result);
      if (id) outboundIds.add(id);
    }
  }
  return { messageIds: [...messageIds], mailboxIds: [...mailboxIds], outboundIds: [...outboundIds], headers };
}
