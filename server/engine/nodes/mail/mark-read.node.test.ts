import { describe, it } from 'vitest';
import { checkMailNode } from './mail-nodes.cases';
import { markReadNode } from './mark-read.node';

describe('mail.mark_read', () => {
  it.each([
    [{}, { action: 'markRead' }],
    [{ read: false }, { action: 'markUnread' }],
  ])('%j → %j', (params, expected) => checkMailNode(markReadNode, params, expected));
});
