import { describe, expect, it } from 'vitest';
import { runNode } from '../testing';
import { mergeNode } from './merge.node';

describe('logic.merge', () => {
  it('declares inputs a and b', () => {
    expect(mergeNode.inputs).toEqual(['a', 'b']);
  });

  it.each([
    ['object', { a: { x: 1 }, b: [2] }, { a: { x: 1 }, b: [2] }],
    ['append', { a: [1, 2], b: [3] }, { items: [1, 2, 3] }],
    ['append', { a: { items: [1] }, b: { y: 1 } }, { items: [1, { y: 1 }] }],
    ['append', { a: [1] }, { items: [1] }],
  ])('%s of %j', async (mode, input, data) => {
    expect(await runNode(mergeNode, { params: { mode }, input })).toEqual({ data });
  });
});
