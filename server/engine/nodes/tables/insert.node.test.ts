import { describe, it } from 'vitest';
import { checkTableWrite } from './table-writes.cases';
import { insertNode } from './insert.node';

describe('tables.insert', () => {
  it('writes once through the keyed effect, and not at all in a test run', () =>
    checkTableWrite(insertNode, 'insert', { tableId: 't1', cells: { email: 'a@b.c', n: 2 } }, { tableId: 't1', cells: { email: 'a@b.c', n: 2 } }));
});
