/**
 * What a thread action does to each message of the thread, decided from the messages and the
 * mailbox's folders as they are at call time. Pure: the service reads, this decides, the service
 * writes.
 *
 * | action | messages it concerns | mirror effect |
 * |---|---|---|
 * | markRead / markUnread | every message | seen |
 * | flag / unflag | every message | flagged |
 * | archive | those in the inbox | to the archive folder |
 * | unarchive | those in the archive | to the inbox |
 * | trash | those not in trash | to the trash folder |
 * | restore | those in trash | back where they came from (the folder their trash action left), else sent mail to the sent folder, else the inbox |
 * | spam | those not in spam | to the spam folder |
 * | notSpam | those in spam | back where they came from, else the inbox |
 * | deletePermanently | those in trash or spam | removed from the mirror (the runner deletes them on the server) |
 * | move (with `folder`) | those not already there | to that folder (a key, or a role name other than `starred`/`all`) |
 * | labels only | every message | labels added and removed |
 *
 * `labels` given with an action apply to the messages the action concerns, in the same operation.
 * An action that concerns no message (archiving a thread with nothing in the inbox), a folder the
 * mailbox does not have, `move` without `folder`, or a permanent deletion the provider cannot do is
 * 400 `webmail.unsupported_action` with `details.reason`.
 */
import { appError } from '../../../../core/errors/app-error';
import { isFolderRole, virtualRoles, type FolderRole } from '../../schemas';

export const threadActions = [
  'markRead',
  'markUnread',
  'flag',
  'unflag',
  'archive',
  'unarchive',
  'trash',
  'restore',
  'spam',
  'notSpam',
  'deletePermanently',
  'move',
] as const;

export type ThreadAction = (typeof threadActions)[number];

export interface PlanMessage {
  id: string;
  folderKey: string;
  sent: boolean;
  providerKey: string;
}

export interface PlanFolder {
  key: string;
  role: string | null;
}

export interface ActionRequest {
  action?: ThreadAction;
  labels?: { add: string[]; remove: string[] };
  folder?: string;
}

/** What one message's operation records and does to the mirror. */
export interface PlannedOperation {
  messageId: string;
  /** The spec's action name, or `labels` for a labels-only request. */
  action: ThreadAction | 'labels';
  params: { fromFolderKey?: string; toFolderKey?: string; labelsAdd?: string[]; labelsRemove?: string[]; providerKey?: string };
  seen?: boolean;
  flagged?: boolean;
  toFolderKey?: string;
  remove?: boolean;
}

export interface PlanContext {
  messages: PlanMessage[];
  folders: PlanFolder[];
  canDeletePermanently: boolean;
  /** Where a message in trash or spam was before (the folder its trash/spam operation left). */
  cameFrom: ReadonlyMap<string, string>;
}

function unsupported(reason: string, details: Record<string, unknown> = {}): never {
  throw appError('webmail.unsupported_action', { details: { reason, ...details } });
}

export function planThreadAction(request: ActionRequest, context: PlanContext): PlannedOperation[] {
  if (request.folder !== undefined && request.action !== 'move') {
    throw appError('webmail.bad_request', { message: '`folder` goes with the `move` action only.', details: { reason: 'folder_without_move' } });
  }
  const roleKey = (role: FolderRole) => context.folders.find((folder) => folder.role === role)?.key ?? null;
  const keyOf = (role: FolderRole) => roleKey(role) ?? unsupported('no_folder', { role });
  const inRole = (role: FolderRole) => {
    const key = roleKey(role);
    return (message: PlanMessage) => message.folderKey === key;
  };
  const labels = request.labels && (request.labels.add.length || request.labels.remove.length) ? request.labels : null;
  const labelParams = labels ? { labelsAdd: labels.add, labelsRemove: labels.remove } : {};

  const moveTo = (concerned: (message: PlanMessage) => boolean, target: (message: PlanMessage) => string, emptyReason: string) => {
    const chosen = context.messages.filter(concerned);
    if (chosen.length === 0) unsupported(emptyReason);
    return chosen.map(
      (message): PlannedOperation => ({
        messageId: message.id,
        action: request.action!,
        params: { fromFolderKey: message.folderKey, toFolderKey: target(message), ...labelParams },
        toFolderKey: target(message),
      }),
    );
  };
  const flagAll = (change: Pick<PlannedOperation, 'seen' | 'flagged'>) =>
    context.messages.map((message): PlannedOperation => ({ messageId: message.id, action: request.action!, params: { ...labelParams }, ...change }));
  const backFrom = (fallback: (message: PlanMessage) => string) => (message: PlanMessage) => {
    const origin = context.cameFrom.get(message.id);
    const usable = origin && context.folders.some((folder) => folder.key === origin && folder.role !== 'trash' && folder.role !== 'spam');
    return usable ? origin : fallback(message);
  };

  switch (request.action) {
    case undefined:
      if (!labels) throw appError('webmail.bad_request', { message: 'Give an action, labels to add or remove, or both.', details: { reason: 'nothing_to_do' } });
      return context.messages.map((message) => ({ messageId: message.id, action: 'labels', params: { ...labelParams } }));
    case 'markRead':
      return flagAll({ seen: true });
    case 'markUnread':
      return flagAll({ seen: false });
    case 'flag':
      return flagAll({ flagged: true });
    case 'unflag':
      return flagAll({ flagged: false });
    case 'archive': {
      const target = keyOf('archive');
      return moveTo(inRole('inbox'), () => target, 'nothing_in_inbox');
    }
    case 'unarchive': {
      const target = keyOf('inbox');
      return moveTo(inRole('archive'), () => target, 'nothing_in_archive');
    }
    case 'trash': {
      const target = keyOf('trash');
      return moveTo((message) => message.folderKey !== target, () => target, 'already_in_trash');
    }
    case 'spam': {
      const target = keyOf('spam');
      return moveTo((message) => message.folderKey !== target, () => target, 'already_in_spam');
    }
    case 'restore': {
      const inbox = keyOf('inbox');
      const sent = roleKey('sent');
      return moveTo(inRole('trash'), backFrom((message) => (message.sent && sent ? sent : inbox)), 'nothing_in_trash');
    }
    case 'notSpam': {
      const inbox = keyOf('inbox');
      return moveTo(inRole('spam'), backFrom(() => inbox), 'nothing_in_spam');
    }
    case 'move': {
      if (!request.folder) unsupported('folder_required');
      const target = moveTarget(request.folder, context.folders);
      return moveTo((message) => message.folderKey !== target, () => target, 'already_there');
    }
    case 'deletePermanently': {
      if (!context.canDeletePermanently) unsupported('provider_cannot_delete');
      const trash = roleKey('trash');
      const spam = roleKey('spam');
      const chosen = context.messages.filter((message) => message.folderKey === trash || message.folderKey === spam);
      if (chosen.length === 0) unsupported('nothing_in_trash');
      return chosen.map((message) => ({
        messageId: message.id,
        action: 'deletePermanently',
        params: { fromFolderKey: message.folderKey, providerKey: message.providerKey },
        remove: true,
      }));
    }
  }
}

/** The folder key `move` goes to: a role name (not a virtual one) or a key of the mailbox. */
function moveTarget(folder: string, folders: PlanFolder[]): string {
  if (isFolderRole(folder)) {
    if (virtualRoles.has(folder)) unsupported('virtual_folder', { folder });
    return folders.find((candidate) => candidate.role === folder)?.key ?? unsupported('no_folder', { role: folder });
  }
  return folders.find((candidate) => candidate.key === folder)?.key ?? unsupported('unknown_folder', { folder });
}
