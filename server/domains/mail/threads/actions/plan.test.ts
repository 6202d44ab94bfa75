import { describe, expect, it } from 'vitest';
import { isAppError } from '../../../../core/errors/app-error';
import { planThreadAction, type ActionRequest, type PlanContext } from './plan';

const folders = [
  { key: 'INBOX', role: 'inbox' },
  { key: 'Sent', role: 'sent' },
  { key: 'Archive', role: 'archive' },
  { key: 'Junk', role: 'spam' },
  { key: 'Trash', role: 'trash' },
  { key: 'Work', role: null },
];

const context = (folderKeys: string[], extra: Partial<PlanContext> = {}): PlanContext => ({
  messages: folderKeys.map((folderKey, index) => ({ id: `m${index}`, folderKey, sent: folderKey === 'Sent', providerKey: `${folderKey}\n1\n${index}` })),
  folders,
  canDeletePermanently: true,
  cameFrom: new Map(),
  ...extra,
});

const moves = (request: ActionRequest, folderKeys: string[], extra?: Partial<PlanContext>) =>
  planThreadAction(request, context(folderKeys, extra)).map((operation) => [operation.messageId, operation.toFolderKey ?? (operation.remove ? 'removed' : null)]);

const refusal = (request: ActionRequest, folderKeys: string[], extra?: Partial<PlanContext>) => {
  try {
    planThreadAction(request, context(folderKeys, extra));
  } catch (error) {
    if (isAppError(error)) return [error.code, error.details.reason];
  }
  return null;
};

describe('planThreadAction', () => {
  it.each<[ActionRequest, string[], (string | null)[][]]>([
    [{ action: 'archive' }, ['INBOX', 'Sent', 'INBOX'], [['m0', 'Archive'], ['m2', 'Archive']]],
    [{ action: 'unarchive' }, ['Archive', 'Sent'], [['m0', 'INBOX']]],
    [{ action: 'trash' }, ['INBOX', 'Trash', 'Work'], [['m0', 'Trash'], ['m2', 'Trash']]],
    [{ action: 'restore' }, ['Trash', 'Trash', 'INBOX'], [['m0', 'INBOX'], ['m1', 'INBOX']]],
    [{ action: 'spam' }, ['INBOX', 'Junk'], [['m0', 'Junk']]],
    [{ action: 'notSpam' }, ['Junk', 'INBOX'], [['m0', 'INBOX']]],
    [{ action: 'move', folder: 'Work' }, ['INBOX', 'Work'], [['m0', 'Work']]],
    [{ action: 'move', folder: 'trash' }, ['INBOX'], [['m0', 'Trash']]],
    [{ action: 'deletePermanently' }, ['Trash', 'INBOX', 'Junk'], [['m0', 'removed'], ['m2', 'removed']]],
    [{ action: 'markRead' }, ['INBOX', 'Sent'], [['m0', null], ['m1', null]]],
  ])('%j on %j', (request, folderKeys, expected) => {
    expect(moves(request, folderKeys)).toEqual(expected);
  });

  it('restores to where a message came from, sent mail to sent, the rest to the inbox', () => {
    const cameFrom = new Map([['m0', 'Work'], ['m2', 'Trash']]);
    const planned = planThreadAction({ action: 'restore' }, { ...context(['Trash', 'Trash', 'Trash']), messages: [
      { id: 'm0', folderKey: 'Trash', sent: false, providerKey: 'a' },
      { id: 'm1', folderKey: 'Trash', sent: true, providerKey: 'b' },
      { id: 'm2', folderKey: 'Trash', sent: false, providerKey: 'c' },
    ], cameFrom });
    expect(planned.map((operation) => operation.toFolderKey)).toEqual(['Work', 'Sent', 'INBOX']);
  });

  it('carries labels with the action, or alone on every message', () => {
    const planned = planThreadAction({ action: 'archive', labels: { add: ['Done'], remove: [] } }, context(['INBOX', 'Sent']));
    expect(planned).toEqual([{ messageId: 'm0', action: 'archive', params: { fromFolderKey: 'INBOX', toFolderKey: 'Archive', labelsAdd: ['Done'], labelsRemove: [] }, toFolderKey: 'Archive' }]);
    expect(planThreadAction({ labels: { add: [], remove: ['x'] } }, context(['INBOX', 'Sent'])).map((operation) => operation.action)).toEqual(['labels', 'labels']);
  });

  it.each<[ActionRequest, string[], Partial<PlanContext>, [string, string]]>([
    [{}, ['INBOX'], {}, ['webmail.bad_request', 'nothing_to_do']],
    [{ labels: { add: [], remove: [] } }, ['INBOX'], {}, ['webmail.bad_request', 'nothing_to_do']],
    [{ action: 'trash', folder: 'Work' }, ['INBOX'], {}, ['webmail.bad_request', 'folder_without_move']],
    [{ action: 'move' }, ['INBOX'], {}, ['webmail.unsupported_action', 'folder_required']],
    [{ action: 'move', folder: 'all' }, ['INBOX'], {}, ['webmail.unsupported_action', 'virtual_folder']],
    [{ action: 'move', folder: 'drafts' }, ['INBOX'], {}, ['webmail.unsupported_action', 'no_folder']],
    [{ action: 'move', folder: 'constructor' }, ['INBOX'], {}, ['webmail.unsupported_action', 'unknown_folder']],
    [{ action: 'archive' }, ['Sent'], {}, ['webmail.unsupported_action', 'nothing_in_inbox']],
    [{ action: 'deletePermanently' }, ['Trash'], { canDeletePermanently: false }, ['webmail.unsupported_action', 'provider_cannot_delete']],
    [{ action: 'archive' }, ['INBOX'], { folders: folders.filter((folder) => folder.role !== 'archive') }, ['webmail.unsupported_action', 'no_folder']],
  ])('refuses %j on %j', (request, folderKeys, extra, expected) => {
    expect(refusal(request, folderKeys, extra)).toEqual(expected);
  });
});
