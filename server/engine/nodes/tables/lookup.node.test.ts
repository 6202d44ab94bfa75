import { describe, expect, it, vi } from 'vitest';
import { fakeCapabilities, runNode } from '../testing';
import { lookupNode } from './lookup.node';

describe('tables.lookup', () => {
  it.each([
    [null, { found: false, row: null }],
    [{ id: 'r1', cells: { email: 'a@b.c' } }, { found: true, row: { id: 'r1', cells: { email: 'a@b.c' } } }],
  ])('answers %j as %j', async (row, data) => {
    const capabilities = fakeCapabilities({ tables: { lookup: vi.fn(async () => row) } });
    expect(await runNode(lookupNode, { params: { tableId: 't1', key: 'a@b.c' }, capabilities })).toEqual({ data });
    expect(capabilities.tables.lookup).toHaveBeenCalledWith({ tableId: 't1', key: 'a@b.c' });
  });

  it('has no effect', () => expect(lookupNode.effect).toBe('none'));
});
