import { afterEach, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../core/config';
import { forbiddenNodeIssues, forbiddenNodeTypesFor, forbiddenTypesIn } from './forbidden-nodes';

const graph = { nodes: [{ type: 'trigger.mail' }, { type: 'http.request' }, { type: 'logic.if' }, { type: 'http.request' }] };

afterEach(() => {
  delete process.env.FORBIDDEN_NODE_TYPES;
  resetConfigForTests();
});

describe('forbidden node types', () => {
  it.each([
    [undefined, []],
    ['', []],
    ['http.request', ['http.request']],
    [' http.request , mail.send,,http.request ', ['http.request', 'mail.send']],
  ])('FORBIDDEN_NODE_TYPES=%j forbids %j to members', (value, expected) => {
    if (value !== undefined) process.env.FORBIDDEN_NODE_TYPES = value;
    resetConfigForTests();
    expect([...forbiddenNodeTypesFor('member')].sort()).toEqual(expected);
    expect([...forbiddenNodeTypesFor('admin')]).toEqual([]);
  });

  it('names each forbidden type once, sorted, and one issue per node at its type', () => {
    const forbidden = new Set(['http.request', 'logic.if', 'mail.send']);
    expect(forbiddenTypesIn(graph, forbidden)).toEqual(['http.request', 'logic.if']);
    expect(forbiddenNodeIssues(graph, forbidden).map((issue) => issue.path)).toEqual(['nodes[1].type', 'nodes[2].type', 'nodes[3].type']);
    expect(forbiddenNodeIssues(graph, forbidden)[0].message).toBe('Node type "http.request" is not allowed on this instance.');
    expect(forbiddenTypesIn(graph, new Set())).toEqual([]);
    expect(forbiddenNodeIssues(graph, new Set())).toEqual([]);
  });
});
