import { describe, expect, it } from 'vitest';
import { checkMailNode } from './mail-nodes.cases';
import { moveNode } from './move.node';

describe('mail.move', () => {
  it('moves the triggering or chosen message', () => checkMailNode(moveNode, { folder: 'archive' }, { action: 'move', folder: 'archive' }));
  it('needs a folder', () => expect(moveNode.params.safeParse({}).success).toBe(false));
});
