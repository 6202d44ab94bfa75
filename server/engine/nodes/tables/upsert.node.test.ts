import { describe, it } from 'vitest';
import { checkTableWrite } from './table-writes.cases';
import { upsertNode } from './upsert.node';

describe('tables.upsert', () => {
  it('writes once through the keyed effect, and not at all in a test run', () =>
    checkTableWrite(upsertNode, 'upsert', { tableId: 't1', cells: { email: 'a@b.c', n: 2 } }, { tableId: 't1', cells: { email: 'a@b.c', n: 2 } }));
});
