import { describe, expect, it } from 'vitest';
import { prototypeNames } from '@/server/testing/prototype-names';
import { diffCounts, diffGraphs, diffValues, formatPath, isEmptyDiff, jsonEqual, previewValue, type GraphDiff } from './graph-diff';

const node = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  type: 'data.set',
  version: 1,
  name: `Node ${id}`,
  params: {},
  onError: 'fail',
  position: { x: 0, y: 0 },
  disabled: false,
  ...extra,
});

const graph = (extra: Record<string, unknown> = {}) => ({
  id: 'g',
  workflowId: 'w',
  nodes: [node('start', { type: 'trigger.webhook' }), node('tidy', { params: { fields: [{ name: 'ok', value: true }] } })],
  connections: [{ from: 'start', output: 'main', to: 'tidy' }],
  notes: [{ id: 'n1', text: 'Hello', position: { x: 10, y: 10 }, size: { width: 240, height: 160 }, color: 'jaune' }],
  pins: { start: { output: { a: 1 }, pinnedAt: '2024-01-01T00:00:00Z' } },
  ...extra,
});

const empty: GraphDiff = {
  nodes: { added: [], removed: [], changed: [] },
  connections: { added: [], removed: [] },
  notes: { added: [], removed: [], changed: [] },
  pins: { added: [], removed: [], changed: [] },
};

describe('diffGraphs', () => {
  it('finds nothing between identical graphs, or between a graph and its structured clone', () => {
    const g = graph();
    expect(diffGraphs(g, g)).toEqual(empty);
    expect(diffGraphs(g, structuredClone(g))).toEqual(empty);
    expect(isEmptyDiff(diffGraphs(g, structuredClone(g)))).toBe(true);
    expect(diffGraphs(null, undefined)).toEqual(empty);
  });

  it('treats the defaults the server fills in as equal to their absence', () => {
    const stored = {
      nodes: [node('a')],
      connections: [{ from: 'a', output: 'main', to: 'b', kind: 'data' }],
      notes: [{ id: 'n', text: '', position: { x: 0, y: 0 }, size: { width: 240, height: 160 }, color: 'jaune' }],
    };
    const sparse = {
      nodes: [{ id: 'a', type: 'data.set', version: 1, name: 'Node a', notes: '' }],
      connections: [{ from: 'a', to: 'b' }],
      notes: [{ id: 'n' }],
    };
    expect(diffGraphs(stored, sparse)).toEqual(empty);
  });

  it('lists nodes added and removed with their name, type and version', () => {
    const before = graph();
    const after = graph({ nodes: [node('start', { type: 'trigger.webhook' }), node('mail', { type: 'mail.draft', version: 2, name: 'Draft reply' })] });
    const diff = diffGraphs(before, after);
    expect(diff.nodes.added).toEqual([{ id: 'mail', name: 'Draft reply', type: 'mail.draft', version: 2 }]);
    expect(diff.nodes.removed).toEqual([{ id: 'tidy', name: 'Node tidy', type: 'data.set', version: 1 }]);
    expect(diff.nodes.changed).toEqual([]);
  });

  it.each([
    ['name', { name: 'Renamed' }, { field: 'name', before: 'Node tidy', after: 'Renamed' }],
    ['type', { type: 'data.filter' }, { field: 'type', before: 'data.set@1', after: 'data.filter@1' }],
    ['version', { version: 2 }, { field: 'type', before: 'data.set@1', after: 'data.set@2' }],
    ['disabled', { disabled: true }, { field: 'disabled', before: false, after: true }],
    ['onError', { onError: 'errorPort' }, { field: 'onError', before: 'fail', after: 'errorPort' }],
    ['retry', { retry: { maxAttempts: 3, delayMs: 1000 } }, { field: 'retry', before: undefined, after: { maxAttempts: 3, delayMs: 1000 } }],
    ['timeoutMs', { timeoutMs: 60_000 }, { field: 'timeoutMs', before: undefined, after: 60_000 }],
    ['notes', { notes: 'Check the sender first' }, { field: 'notes', before: undefined, after: 'Check the sender first' }],
  ])('reports a changed %s', (_label, patch, expected) => {
    const before = graph();
    const after = graph({ nodes: [before.nodes[0], { ...before.nodes[1], ...patch }] });
    const [change] = diffGraphs(before, after).nodes.changed;
    expect(change.id).toBe('tidy');
    expect(change.fields).toEqual([expected]);
    expect(change.params).toEqual([]);
    expect(change.moved).toBe(false);
  });

  it('reports a move separately, as minor', () => {
    const before = graph();
    const after = graph({ nodes: [before.nodes[0], { ...before.nodes[1], position: { x: 300, y: 40 } }] });
    const diff = diffGraphs(before, after);
    expect(diff.nodes.changed).toEqual([
      { id: 'tidy', before: expect.objectContaining({ id: 'tidy' }), after: expect.objectContaining({ id: 'tidy' }), fields: [], params: [], moved: true },
    ]);
    expect(diffCounts(diff)).toEqual({ total: 1, moves: 1, significant: 0 });
    expect(isEmptyDiff(diff)).toBe(false);
    expect(isEmptyDiff(diff, { ignoreMoves: true })).toBe(true);
  });

  it('walks parameters deeply, through objects and arrays, with readable paths', () => {
    const before = graph({
      nodes: [
        node('x', {
          params: {
            fields: [
              { name: 'ok', value: true },
              { name: 'b', value: 1 },
            ],
            headers: { 'X-Key': 'a', Accept: 'json' },
            nested: { deep: { deeper: { list: [1, 2, 3] } } },
            gone: 'bye',
          },
        }),
      ],
    });
    const after = graph({
      nodes: [
        node('x', {
          params: {
            fields: [{ name: 'ok', value: false }],
            headers: { 'X-Key': 'b', Accept: 'json' },
            nested: { deep: { deeper: { list: [1, 2, 4, 5] } } },
            fresh: { a: 1 },
          },
        }),
      ],
    });
    const [change] = diffGraphs(before, after).nodes.changed;
    expect(change.fields).toEqual([]);
    expect(change.params.map(({ path, kind, before, after }) => ({ path, kind, before, after }))).toEqual([
      { path: 'fields[0].value', kind: 'changed', before: true, after: false },
      { path: 'fields[1]', kind: 'removed', before: { name: 'b', value: 1 }, after: undefined },
      { path: 'headers["X-Key"]', kind: 'changed', before: 'a', after: 'b' },
      { path: 'nested.deep.deeper.list[2]', kind: 'changed', before: 3, after: 4 },
      { path: 'nested.deep.deeper.list[3]', kind: 'added', before: undefined, after: 5 },
      { path: 'gone', kind: 'removed', before: 'bye', after: undefined },
      { path: 'fresh', kind: 'added', before: undefined, after: { a: 1 } },
    ]);
    expect(change.params[0].segments).toEqual(['fields', 0, 'value']);
  });

  it('reports a value that changes kind once, at its path', () => {
    expect(diffValues({ a: { b: 1 } }, { a: 'text' })).toEqual([{ path: 'a', segments: ['a'], kind: 'changed', before: { b: 1 }, after: 'text' }]);
    expect(diffValues({ a: [1] }, { a: { 0: 1 } })).toEqual([{ path: 'a', segments: ['a'], kind: 'changed', before: [1], after: { 0: 1 } }]);
    expect(diffValues({ a: null }, { a: 0 })).toEqual([{ path: 'a', segments: ['a'], kind: 'changed', before: null, after: 0 }]);
    expect(diffValues({ a: { x: 1, y: 2 } }, { a: { y: 2, x: 1 } })).toEqual([]);
  });

  it('treats prototype-named parameter keys as ordinary keys', () => {
    for (const key of prototypeNames) {
      // JSON.parse makes `__proto__` an own key, as a graph from the API would have it.
      const before = JSON.parse(`{"${key}": {"inner": 1}, "plain": 1}`) as Record<string, unknown>;
      const after = JSON.parse(`{"${key}": {"inner": 2}, "plain": 1}`) as Record<string, unknown>;
      const [change] = diffGraphs({ nodes: [node('p', { params: before })] }, { nodes: [node('p', { params: after })] }).nodes.changed;
      expect(change.params, key).toEqual([{ path: `${key}.inner`, segments: [key, 'inner'], kind: 'changed', before: 1, after: 2 }]);
      // Present on one side only: added, never read through Object.prototype.
      const added = diffValues({ plain: 1 }, after);
      expect(added, key).toEqual([{ path: key, segments: [key], kind: 'added', before: undefined, after: { inner: 2 } }]);
      expect(diffValues(before, before), key).toEqual([]);
    }
    expect(Object.prototype).not.toHaveProperty('inner');
  });

  it('lists connections added and removed, whatever their order', () => {
    const before = graph({
      nodes: [node('a'), node('b'), node('c')],
      connections: [
        { from: 'a', output: 'main', to: 'b' },
        { from: 'b', output: 'true', to: 'c' },
        { from: 'a', to: 'c', kind: 'service', input: 'model' },
      ],
    });
    const after = graph({
      nodes: [node('a'), node('b'), node('c', { name: 'Renamed c' })],
      connections: [
        { from: 'b', output: 'false', to: 'c' },
        { from: 'a', to: 'c', kind: 'service', input: 'model' },
        { from: 'a', to: 'b' },
      ],
    });
    const diff = diffGraphs(before, after);
    expect(diff.connections).toEqual({
      added: [{ from: 'b', output: 'false', to: 'c', kind: 'data', fromName: 'Node b', toName: 'Renamed c' }],
      removed: [{ from: 'b', output: 'true', to: 'c', kind: 'data', fromName: 'Node b', toName: 'Node c' }],
    });
    expect(diff.nodes.changed.map((change) => change.id)).toEqual(['c']);
    // An end that is not a node reads as its id.
    expect(diffGraphs({ nodes: [] }, { nodes: [], connections: [{ from: 'x', to: 'y' }] }).connections.added).toEqual([
      { from: 'x', output: 'main', to: 'y', kind: 'data', fromName: 'x', toName: 'y' },
    ]);
  });

  it('lists sticky notes added, removed and changed (text, colour, size; moves apart)', () => {
    const before = graph({
      notes: [
        { id: 'n1', text: 'Hello', color: 'jaune' },
        { id: 'n2', text: 'Old' },
        { id: 'n3', text: 'Here', position: { x: 0, y: 0 } },
      ],
    });
    const after = graph({
      notes: [
        { id: 'n1', text: 'Hello there', color: 'rose', size: { width: 400, height: 160 } },
        { id: 'n3', text: 'Here', position: { x: 50, y: 0 } },
        { id: 'n4', text: 'New', color: 'ciel' },
      ],
    });
    const diff = diffGraphs(before, after);
    expect(diff.notes.added).toEqual([{ id: 'n4', text: 'New', color: 'ciel' }]);
    expect(diff.notes.removed).toEqual([{ id: 'n2', text: 'Old', color: 'jaune' }]);
    expect(diff.notes.changed).toEqual([
      { id: 'n1', before: { id: 'n1', text: 'Hello', color: 'jaune' }, after: { id: 'n1', text: 'Hello there', color: 'rose' }, fields: ['text', 'color', 'size'], moved: false },
      { id: 'n3', before: { id: 'n3', text: 'Here', color: 'jaune' }, after: { id: 'n3', text: 'Here', color: 'jaune' }, fields: [], moved: true },
    ]);
  });

  it('lists pins added, removed and changed, prototype-named keys included', () => {
    const pin = (output: unknown) => ({ output, pinnedAt: '2024-01-01T00:00:00Z' });
    const before = { nodes: [], pins: JSON.parse(JSON.stringify({ a: pin(1), b: pin(2), constructor: pin(3) })) };
    const after = { nodes: [], pins: JSON.parse(`{"a": ${JSON.stringify(pin(1))}, "b": ${JSON.stringify(pin(20))}, "__proto__": ${JSON.stringify(pin(4))}}`) };
    expect(diffGraphs(before, after).pins).toEqual({ added: ['__proto__'], removed: ['constructor'], changed: ['b'] });
  });

  it('reads malformed graphs defensively', () => {
    const diff = diffGraphs(
      { nodes: [null, 'x', { id: 1 }, node('a'), node('a', { name: 'Duplicate' })], connections: [{ from: 'a' }, 7], notes: 'no', pins: [] },
      { nodes: 'nope', connections: null },
    );
    expect(diff.nodes.removed).toEqual([{ id: 'a', name: 'Node a', type: 'data.set', version: 1 }]);
    expect(diff.connections).toEqual({ added: [], removed: [] });
    expect(diff.notes).toEqual(empty.notes);
  });

  it('counts the differences', () => {
    const before = graph();
    const after = graph({ nodes: [node('start', { type: 'trigger.webhook', name: 'Hook' })], connections: [], notes: [], pins: {} });
    expect(diffCounts(diffGraphs(before, after))).toEqual({ total: 5, moves: 0, significant: 5 });
  });
});

describe('helpers', () => {
  it.each([
    [[], ''],
    [['a'], 'a'],
    [['a', 0, 'b'], 'a[0].b'],
    [[0, 'x'], '[0].x'],
    [['with space', 'ok'], '["with space"].ok'],
    [['quote"d'], '["quote\\"d"]'],
    [['__proto__', 'constructor'], '__proto__.constructor'],
  ] as [(string | number)[], string][])('formats %j as %s', (segments, path) => {
    expect(formatPath(segments)).toBe(path);
  });

  it('compares JSON deeply, ignoring key order', () => {
    expect(jsonEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBe(true);
    expect(jsonEqual({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({}, [])).toBe(false);
    expect(jsonEqual(JSON.parse('{"constructor": 1}'), {})).toBe(false);
  });

  it('compares very deep values whole past the depth bound', () => {
    let before: unknown = 1;
    let after: unknown = 2;
    for (let level = 0; level < 100; level++) {
      before = { k: before };
      after = { k: after };
    }
    const changes = diffValues(before, after);
    expect(changes).toHaveLength(1);
    expect(changes[0].segments).toHaveLength(64);
  });

  it('previews values for display, cut to a length', () => {
    expect(previewValue(undefined)).toBe('');
    expect(previewValue('hi')).toBe('"hi"');
    expect(previewValue(42)).toBe('42');
    expect(previewValue(null)).toBe('null');
    expect(previewValue({ a: [1, true] })).toBe('{"a":[1,true]}');
    expect(previewValue('x'.repeat(500), 20)).toBe(`"${'x'.repeat(18)}…`);
    expect(previewValue('x'.repeat(500), 20)).toHaveLength(20);
  });
});
