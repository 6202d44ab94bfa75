/**
 * Undoing a run's mailbox changes, in words (issue 24 §4): what undoing an item does, why one is left
 * as it is or failed, why the undo was refused, and whether the run page offers it at all. Pure, so
 * every sentence is table-tested without rendering.
 */
import type { Dictionary } from '@/app/i18n';
import { appErrorOf, describeError } from '@/app/lib/errors';

type UndoAction =
  | { kind: 'message'; messageId: string; action?: 'move' | 'markRead' | 'markUnread' | 'flag' | 'unflag'; folder?: string; labels?: { add: string[]; remove: string[] } }
  | { kind: 'discard_draft'; outboundId: string };

export interface DescribableItem {
  effect: string;
  description: string;
  action: UndoAction | null;
}

/** A folder key as the member knows it: the inbox by its name, others by their key (their path). */
export function folderText(folder: string, t: Dictionary): string {
  return folder.toUpperCase() === 'INBOX' ? t.undo.inbox : folder;
}

/** What undoing the item does ("Move back to “Inbox”; Remove the label “Processed”"), or what the run did when no undo could be named. */
export function undoActionText(item: DescribableItem, t: Dictionary): string {
  const words = t.undo.actions;
  const action = item.action;
  if (!action) return t.undo.effects[item.effect] ?? item.description;
  if (action.kind === 'discard_draft') return words.discardDraft;
  const parts: string[] = [];
  if (action.action === 'move' && action.folder !== undefined) parts.push(words.moveBack(folderText(action.folder, t)));
  else if (action.action === 'markRead') parts.push(words.markRead);
  else if (action.action === 'markUnread') parts.push(words.markUnread);
  else if (action.action === 'flag') parts.push(words.flag);
  else if (action.action === 'unflag') parts.push(words.unflag);
  if (action.labels?.remove.length) parts.push(words.labelsRemove(action.labels.remove));
  if (action.labels?.add.length) parts.push(words.labelsPutBack(action.labels.add));
  return parts.length > 0 ? parts.join(words.separator) : (t.undo.effects[item.effect] ?? item.description);
}

/** Why a planned item is left as it is (the plan's skip reason), in words. */
export function skipReasonText(reason: string | null, t: Dictionary): string | null {
  if (!reason) return null;
  return (Object.hasOwn(t.undo.reasons, reason) && t.undo.reasons[reason]) || reason;
}

/** Why the mailbox refused an item: its refusal's reason (`mailbox_disconnected`, `unknown_folder`) or an error code. */
export function failureText(reason: string | null, t: Dictionary): string {
  const failures = t.undo.failures;
  if (reason === 'mailbox_disconnected') return failures.mailbox_disconnected;
  if (reason === 'unknown_folder') return failures.unknown_folder;
  const known = reason ? (t.errors.codes as Record<string, string | undefined>)[reason] : undefined;
  return known ?? failures.other(reason ?? '?');
}

/** An undone item's result: its skip reason or its failure, in words (null when undone). */
export function resultReasonText(item: { status: string; reason: string | null }, t: Dictionary): string | null {
  if (item.status === 'skipped') return skipReasonText(item.reason, t);
  if (item.status === 'failed') return failureText(item.reason, t);
  return null;
}

/** Why the preview or the undo was refused, as a sentence (the refusal's reason when it names one). */
export function undoErrorText(error: unknown, t: Dictionary): string {
  const info = appErrorOf(error);
  if (info?.code === 'execution.not_undoable') {
    const reason = info.details.reason;
    if (typeof reason === 'string' && Object.hasOwn(t.undo.refusals, reason)) return t.undo.refusals[reason]!;
  }
  if (info?.code === 'execution.undo_in_progress') return t.undo.inProgress;
  if (info?.code === 'api_key.scope_missing' && typeof info.details.required === 'string') return t.undo.scopeMissing(info.details.required);
  return describeError(error, t);
}

/**
 * What the run page offers: `offer` (the action), `finish` (an undo stopped before the end: the same
 * action finishes it), or nothing to act on: `running` (being undone now), `done` (the summary shows
 * instead), `none` (a test run, a run in progress, a run another run started, a run that did nothing).
 */
export type UndoAvailability = 'offer' | 'finish' | 'running' | 'done' | 'none';

export function undoAvailability(execution: {
  simulated: boolean;
  status: string;
  parentExecutionId?: string | null;
  acted: boolean | null;
  undo: { status: 'running' | 'interrupted' | 'done' } | null;
}): UndoAvailability {
  if (execution.undo?.status === 'done') return 'done';
  if (execution.undo?.status === 'running') return 'running';
  if (execution.undo?.status === 'interrupted') return 'finish';
  const finished = execution.status === 'succeeded' || execution.status === 'failed' || execution.status === 'cancelled';
  if (execution.simulated || !finished || execution.parentExecutionId || execution.acted === false) return 'none';
  return 'offer';
}

/** Why the bulk undo refused one run (its `error`: the code and the refusal's reason), in words. */
export function runRefusalText(error: { code: string; reason: string | null } | null, t: Dictionary): string {
  if (!error) return '';
  if (error.code === 'execution.not_undoable' && error.reason && Object.hasOwn(t.undo.refusals, error.reason)) return t.undo.refusals[error.reason]!;
  if (error.code === 'execution.undo_in_progress') return t.undo.inProgress;
  return (t.errors.codes as Record<string, string | undefined>)[error.code] ?? error.code;
}
