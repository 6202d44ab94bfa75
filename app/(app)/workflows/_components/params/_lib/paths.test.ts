import { describe, expect, it } from 'vitest';
import { graphIssueTarget, issuesForNode, normaliseParamIssuePath, parsePath, pathKey } from './paths';
import { normaliseNodeIssuePath } from './settings';
import { getAt, setAt } from './values';

describe('graph issue paths', () => {
  it.each([
    ['nodes[2].params.conditions[0].left', { nodeIndex: 2, area: 'params', path: 'conditions[0].left', segments: ['conditions', 0, 'left'] }],
    ['nodes[0].params.url', { nodeIndex: 0, area: 'params', path: 'url', segments: ['url'] }],
    ['nodes[1].params', { nodeIndex: 1, area: 'params', path: '', segments: [] }],
    ['nodes[3].params["odd key"][1]', { nodeIndex: 3, area: 'params', path: '["odd key"][1]', segments: ['odd key', 1] }],
    ['nodes.4.params.cells.email', { nodeIndex: 4, area: 'params', path: 'cells.email', segments: ['cells', 'email'] }],
    ['nodes[2].retry.maxAttempts', { nodeIndex: 2, area: 'node', path: 'retry.maxAttempts', segments: ['retry', 'maxAttempts'] }],
    ['nodes[5].name', { nodeIndex: 5, area: 'node', path: 'name', segments: ['name'] }],
    ['nodes[5]', { nodeIndex: 5, area: 'node', path: '', segments: [] }],
  ])('%s', (path, target) => {
    expect(graphIssueTarget(path)).toEqual(target);
  });

  it.each(['connections[0].to', 'notes[1].id', 'pins.a', 'nodes.x', '', 'nodes[1].params..x', 'nodes[1].params[', 'nodes[1].params["a'])('%s is not a node field', (path) => {
    expect(graphIssueTarget(path)).toBeNull();
  });

  it('writes segments the way the server does', () => {
    expect(pathKey(['conditions', 0, 'left'])).toBe('conditions[0].left');
    expect(pathKey(['cells', 'odd key'])).toBe('cells["odd key"]');
    expect(pathKey([])).toBe('');
    expect(parsePath(pathKey(['a', 'b c', 2, '"q"']))).toEqual(['a', 'b c', 2, '"q"']);
  });

  it('splits a graph’s issues by node and form', () => {
    const issues = [
      { path: 'nodes[1].params.url', message: 'Bad URL.' },
      { path: 'nodes[1].timeoutMs', message: 'Too long.' },
      { path: 'nodes[0].params.url', message: 'Other node.' },
      { path: 'connections[0].to', message: 'Dangling.' },
    ];
    expect(issuesForNode(issues, 1)).toEqual({ params: [{ path: 'url', message: 'Bad URL.' }], node: [{ path: 'timeoutMs', message: 'Too long.' }] });
  });

  it('normalises the paths the forms are given', () => {
    expect(normaliseParamIssuePath('conditions[0].left')).toBe('conditions[0].left');
    expect(normaliseParamIssuePath('params.conditions[0].left')).toBe('conditions[0].left');
    expect(normaliseParamIssuePath('nodes[2].params.conditions[0].left')).toBe('conditions[0].left');
    expect(normaliseParamIssuePath('nodes[2].name')).toBeNull();
    expect(normaliseParamIssuePath('')).toBe('');
    expect(normaliseNodeIssuePath('nodes[2].retry.delayMs')).toBe('retry.delayMs');
    expect(normaliseNodeIssuePath('nodes[2].params.url')).toBeNull();
    expect(normaliseNodeIssuePath('notes')).toBe('notes');
  });
});

describe('values by path', () => {
  it('sets and removes without touching the original', () => {
    const params = { a: [{ b: 1 }], c: 'x' };
    expect(setAt(params, ['a', 0, 'b'], 2)).toEqual({ a: [{ b: 2 }], c: 'x' });
    expect(setAt(params, ['c'], undefined)).toEqual({ a: [{ b: 1 }] });
    expect(setAt(params, ['d', 0], 'y')).toEqual({ a: [{ b: 1 }], c: 'x', d: ['y'] });
    expect(params).toEqual({ a: [{ b: 1 }], c: 'x' });
    expect(getAt(params, ['a', 0, 'b'])).toBe(1);
  });

  it.each(['__proto__', 'constructor', 'prototype'])('keeps a %s key as plain data', (key) => {
    const out = setAt({}, [key, 'polluted'], 'yes') as Record<string, unknown>;
    expect(Object.hasOwn(out, key)).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(getAt(out, [key, 'polluted'])).toBe('yes');
    expect(getAt({}, ['constructor'])).toBeUndefined();
  });
});
