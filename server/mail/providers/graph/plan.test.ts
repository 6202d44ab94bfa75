import { describe, expect, it } from 'vitest';
import type { ProviderFolder } from '../../provider';
import { mergeCategories, planGraphOperation, type GraphOperation } from './plan';

const folder = (key: string, providerId: string, role: ProviderFolder['role'] = null): ProviderFolder => ({
  key,
  providerId,
  role,
  name: key,
  parentKey: null,
  depth: 0,
  delimiter: null,
  selectable: true,
});
const folders = [folder('inbox', 'ID-IN', 'inbox'), folder('archive', 'ID-AR', 'archive'), folder('deleteditems', 'ID-DEL', 'trash'), folder('junkemail', 'ID-JUNK', 'spam'), folder('ID-P', 'ID-P')];

describe('planGraphOperation', () => {
  it.each([
    ['markRead', { action: 'markRead' }, { call: 'patch', body: { isRead: true } }],
    ['markUnread', { action: 'markUnread' }, { call: 'patch', body: { isRead: false } }],
    ['flag', { action: 'flag' }, { call: 'patch', body: { flag: { flagStatus: 'flagged' } } }],
    ['unflag', { action: 'unflag' }, { call: 'patch', body: { flag: { flagStatus: 'notFlagged' } } }],
    ['archive', { action: 'archive' }, { call: 'move', destinationKey: 'archive', destinationId: 'ID-AR' }],
    ['unarchive', { action: 'unarchive' }, { call: 'move', destinationKey: 'inbox', destinationId: 'ID-IN' }],
    ['trash', { action: 'trash' }, { call: 'move', destinationKey: 'deleteditems', destinationId: 'ID-DEL' }],
    ['restore', { action: 'restore' }, { call: 'move', destinationKey: 'inbox', destinationId: 'ID-IN' }],
    ['restore to a folder', { action: 'restore', toFolderKey: 'ID-P' }, { call: 'move', destinationKey: 'ID-P', destinationId: 'ID-P' }],
    ['spam', { action: 'spam' }, { call: 'move', destinationKey: 'junkemail', destinationId: 'ID-JUNK' }],
    ['notSpam', { action: 'notSpam', toFolderKey: 'junkemail' }, { call: 'move', destinationKey: 'inbox', destinationId: 'ID-IN' }],
    ['move', { action: 'move', toFolderKey: 'ID-P' }, { call: 'move', destinationKey: 'ID-P', destinationId: 'ID-P' }],
    ['move to an unlisted well-known folder', { action: 'move', toFolderKey: 'sentitems' }, { call: 'move', destinationKey: 'sentitems', destinationId: 'sentitems' }],
    ['move without target', { action: 'move' }, { call: 'unsupported' }],
    ['labels', { action: 'labels', labelsAdd: [' Red ', 'Red', ''], labelsRemove: ['Blue'] }, { call: 'categories', add: ['Red'], remove: ['Blue'] }],
    ['deletePermanently', { action: 'deletePermanently' }, { call: 'delete' }],
    ['unknown', { action: 'snooze' }, { call: 'unsupported' }],
  ] as [string, GraphOperation, unknown][])('%s', (_name, operation, plan) => {
    expect(planGraphOperation(operation, folders)).toEqual(plan);
  });
});

describe('mergeCategories', () => {
  it('adds without case duplicates and removes case-insensitively', () => {
    expect(mergeCategories(['Red', 'Blue'], ['red', 'Green'], ['BLUE'])).toEqual(['Red', 'Green']);
  });
});
