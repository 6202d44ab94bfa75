import { describe, expect, it } from 'vitest';
import { canvasModel, layoutSpacing } from './graph-model';

const node = (id: string, x = 0, y = 0, extra: Record<string, unknown> = {}) => ({ id, type: 'data.set', version: 1, name: `Node ${id}`, position: { x, y }, ...extra });

describe('canvas model', () => {
  it('draws nodes at their position with their step status and edges from the connections', () => {
    const graph = {
      nodes: [node('a', 0, 0, { type: 'trigger.webhook' }), node('b', 300, 0), node('c', 300, 200, { disabled: true })],
      connections: [
        { from: 'a', output: 'main', to: 'b' },
        { from: 'b', output: 'false', to: 'c' },
        { from: 'b', output: 'main', to: 'ghost' },
      ],
    };
    const model = canvasModel(graph, { a: 'succeeded', b: 'failed' });
    expect(model.nodes).toEqual([
      { id: 'a', name: 'Node a', type: 'trigger.webhook', position: { x: 0, y: 0 }, disabled: false, status: 'succeeded' },
      { id: 'b', name: 'Node b', type: 'data.set', position: { x: 300, y: 0 }, disabled: false, status: 'failed' },
      { id: 'c', name: 'Node c', type: 'data.set', position: { x: 300, y: 200 }, disabled: true, status: null },
    ]);
    // The connection to a node that does not exist is not drawn; non-main ports are labelled.
    expect(model.edges.map((edge) => [edge.source, edge.target, edge.label])).toEqual([
      ['a', 'b', null],
      ['b', 'c', 'false'],
    ]);
  });

  it('lays out nodes left to right when their positions collide', () => {
    const graph = {
      nodes: [node('start'), node('left'), node('right'), node('end')],
      connections: [
        { from: 'start', to: 'left' },
        { from: 'start', to: 'right' },
        { from: 'left', to: 'end' },
        { from: 'right', to: 'end' },
      ],
    };
    const positions = Object.fromEntries(canvasModel(graph).nodes.map((n) => [n.id, n.position]));
    expect(positions).toEqual({
      start: { x: 0, y: 0 },
      left: { x: layoutSpacing.x, y: 0 },
      right: { x: layoutSpacing.x, y: layoutSpacing.y },
      end: { x: 2 * layoutSpacing.x, y: 0 },
    });
  });

  it('survives cycles, junk and a missing graph', () => {
    const cyclic = { nodes: [node('a'), node('b')], connections: [{ from: 'a', to: 'b' }, { from: 'b', to: 'a' }] };
    expect(canvasModel(cyclic).nodes).toHaveLength(2);
    expect(canvasModel(null)).toEqual({ nodes: [], edges: [] });
    expect(canvasModel({ nodes: [null, 3, { id: 7 }, node('x'), node('x')], connections: 'no' })).toMatchObject({ nodes: [{ id: 'x' }], edges: [] });
    // A status named like a prototype key never leaks in.
    expect(canvasModel({ nodes: [node('toString')] }).nodes[0].status).toBeNull();
  });
});
