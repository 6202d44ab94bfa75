/**
 * A webmail operation (server/mail/provider.ts `MailOperationInput`) as Gmail calls, planned from
 * the message's current label ids so a repeated operation asks for nothing. Pure.
 *
 * Every folder action is a move to a target: archive → ARCHIVE (drop INBOX and SPAM), unarchive →
 * INBOX, trash → TRASH (`messages.trash`), restore and notSpam → `toFolderKey` or INBOX, spam → SPAM
 * (and out of INBOX), move → `toFolderKey`. Leaving TRASH is `messages.untrash`. Moving to a user label
 * adds it and takes the message out of INBOX/SPAM (Gmail's own "Move to"), dropping the user label it
 * came from. SENT, DRAFT and STARRED are not targets (Gmail refuses to add SENT or DRAFT; starring is
 * `flag`). Labels add and remove user label ids; `labels` names that are no label id yet are created by
 * the adapter first.
 */
import { archiveKey, isUserLabelId } from './labels';

export type GmailStep = { call: 'modify'; add: string[]; remove: string[] } | { call: 'trash' } | { call: 'untrash' } | { call: 'delete' };

export interface GmailOperation {
  action: string;
  fromFolderKey?: string;
  toFolderKey?: string;
  /** Label ids (already resolved from keys or names). */
  labelsAdd?: string[];
  labelsRemove?: string[];
}

export type GmailPlan = { ok: true; steps: GmailStep[] } | { ok: false; reason: 'unsupported_action' | 'unsupported_target' };

const flagChanges: Record<string, { add?: string; remove?: string }> = {
  markRead: { remove: 'UNREAD' },
  markUnread: { add: 'UNREAD' },
  flag: { add: 'STARRED' },
  unflag: { remove: 'STARRED' },
};

function targetOf(operation: GmailOperation): string | null {
  switch (operation.action) {
    case 'archive':
      return archiveKey;
    case 'unarchive':
      return 'INBOX';
    case 'trash':
      return 'TRASH';
    case 'spam':
      return 'SPAM';
    case 'restore':
      return operation.toFolderKey && operation.toFolderKey !== 'TRASH' ? operation.toFolderKey : 'INBOX';
    case 'notSpam':
      return operation.toFolderKey && operation.toFolderKey !== 'SPAM' ? operation.toFolderKey : 'INBOX';
    case 'move':
      return operation.toFolderKey ?? null;
    default:
      return null;
  }
}

/** Only what changes: additions the message lacks, removals it has. */
function modify(current: ReadonlySet<string>, add: string[], remove: string[]): GmailStep[] {
  const adding = [...new Set(add)].filter((id) => !current.has(id));
  const removing = [...new Set(remove)].filter((id) => current.has(id) && !adding.includes(id));
  return adding.length > 0 || removing.length > 0 ? [{ call: 'modify', add: adding, remove: removing }] : [];
}

export function planGmailOperation(operation: GmailOperation, currentLabelIds: readonly string[]): GmailPlan {
  const current = new Set(currentLabelIds);
  if (operation.action === 'deletePermanently') return { ok: true, steps: [{ call: 'delete' }] };
  const flag = Object.hasOwn(flagChanges, operation.action) ? flagChanges[operation.action] : undefined;
  if (flag) return { ok: true, steps: modify(current, flag.add ? [flag.add] : [], flag.remove ? [flag.remove] : []) };
  if (operation.action === 'labels') {
    const add = (operation.labelsAdd ?? []).filter(isUserLabelId);
    const remove = (operation.labelsRemove ?? []).filter(isUserLabelId);
    return { ok: true, steps: modify(current, add, remove) };
  }
  const target = targetOf(operation);
  if (target === null) return { ok: false, reason: operation.action === 'move' ? 'unsupported_target' : 'unsupported_action' };

  if (target === 'TRASH') return { ok: true, steps: current.has('TRASH') ? [] : [{ call: 'trash' }] };
  const steps: GmailStep[] = current.has('TRASH') ? [{ call: 'untrash' }] : [];
  const after = new Set(current);
  after.delete('TRASH');
  if (target === 'SPAM') return { ok: true, steps: [...steps, ...modify(after, ['SPAM'], ['INBOX'])] };
  if (target === 'INBOX') return { ok: true, steps: [...steps, ...modify(after, ['INBOX'], ['SPAM'])] };
  if (target === archiveKey) return { ok: true, steps: [...steps, ...modify(after, [], ['INBOX', 'SPAM'])] };
  if (!isUserLabelId(target)) return { ok: false, reason: 'unsupported_target' };
  const remove = ['INBOX', 'SPAM'];
  const from = operation.fromFolderKey;
  if (from && from !== target && isUserLabelId(from)) remove.push(from);
  return { ok: true, steps: [...steps, ...modify(after, [target], remove)] };
}
