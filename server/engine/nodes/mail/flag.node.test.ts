import { describe, it } from 'vitest';
import { checkMailNode } from './mail-nodes.cases';
import { flagNode } from './flag.node';

describe('mail.flag', () => {
  it.each([
    [{}, { action: 'flag' }],
    [{ flagged: false }, { action: 'unflag' }],
  ])('%j → %j', (params, expected) => checkMailNode(flagNode, params, expected));
});
