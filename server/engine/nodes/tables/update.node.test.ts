import { describe, it } from 'vitest';
import { checkTableWrite } from './table-writes.cases';
import { updateNode } from './update.node';

describe('tables.update', () => {
  it('writes once through the keyed effect, and not at all in a test run', () =>
    checkTableWrite(updateNode, 'update', { tableId: 't1', rowId: 'r1', cells: { email: 'a@b.c', n: 2 } }, { tableId: 't1', rowId: 'r1', cells: { email: 'a@b.c', n: 2 } }));
});
