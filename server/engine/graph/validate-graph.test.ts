import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineNode, type NodeDefinition } from '../contract/define-node';
import { prototypeNames } from '../../testing/prototype-names';
import { graphInput, type GraphInput } from '../contract/graph';
import { triggerFactsOf } from './trigger-facts';
import { validateGraph, type NodeCatalogue } from './validate-graph';

const execute = async () => ({ data: {} });
const base = { category: 'logic', label: { en: 'x', fr: 'x' }, description: { en: 'x', fr: 'x' }, effect: 'none', execute } as const;

/** A small catalogue of its own: the rules are the validator's, not any real node type's. */
const types: NodeDefinition[] = [
  defineNode({ ...base, type: 't.hook', version: 1, category: 'trigger', trigger: 'webhook', params: z.strictObject({}), outputs: ['main'] }),
  defineNode({
    ...base,
    type: 't.mail',
    version: 1,
    category: 'trigger',
    trigger: 'mail',
    params: z.strictObject({ mailboxIds: z.array(z.uuid()).default([]) }),
    outputs: ['main'],
  }),
  defineNode({ ...base, type: 'x.http', version: 1, params: z.strictObject({ url: z.url(), retries: z.number().int().optional() }), outputs: ['main', 'error'] }),
  defineNode({ ...base, type: 'x.http', version: 2, params: z.strictObject({ url: z.url() }), outputs: ['main'] }),
  defineNode({
    ...base,
    type: 'x.switch',
    version: 1,
    params: z.strictObject({ cases: z.array(z.string()) }),
    outputs: (params: { cases: string[] }) => [...params.cases, 'fallback'],
  }),
  defineNode({ ...base, type: 'x.merge', version: 1, params: z.strictObject({}), outputs: ['main'], inputs: ['a', 'b'] }),
  defineNode({ ...base, type: 'x.loop', version: 1, params: z.strictObject({}), outputs: ['item', 'done'], allowsCycles: true }),
  defineNode({
    ...base,
    type: 'x.send',
    version: 1,
    params: z.strictObject({ mailboxId: z.string() }),
    outputs: ['main'],
    mailboxParams: ['mailboxId'],
  }),
];

const catalogue: NodeCatalogue = {
  find: (type, version) => types.find((definition) => definition.type === type && definition.version === version),
  hasType: (type) => types.some((definition) => definition.type === type),
};

function node(id: string, type: string, params: Record<string, unknown> = {}, version = 1) {
  return { id, type, version, name: id, params };
}

function check(graph: GraphInput) {
  return validateGraph(graphInput.parse(graph), catalogue);
}

const boxA = '11111111-1111-4111-8111-111111111111';
const boxB = '22222222-2222-4222-8222-222222222222';

describe('validateGraph', () => {
  it('accepts a well-formed graph', () => {
    expect(
      check({
        nodes: [node('start', 't.hook'), node('call', 'x.http', { url: 'https://example.test' })],
        connections: [{ from: 'start', to: 'call' }],
      }),
    ).toEqual([]);
  });

  it.each([
    ['an unknown node type', [node('a', 'nope.nope')], 'nodes[0].type'],
    ['an unknown version of a known type', [node('a', 'x.http', { url: 'https://e.test' }, 7)], 'nodes[0].version'],
    ['a duplicate node id', [node('a', 't.hook'), node('a', 'x.merge')], 'nodes[1].id'],
    ['a second trigger', [node('a', 't.hook'), node('b', 't.hook')], 'nodes[1]'],
    ['a parameter of the wrong type', [node('a', 'x.http', { url: 42 })], 'nodes[0].params.url'],
    ['a missing required parameter', [node('a', 'x.http', {})], 'nodes[0].params.url'],
    ['an unknown parameter', [node('a', 'x.http', { url: 'https://e.test', extra: 1 })], 'nodes[0].params'],
  ])('reports %s at its path', (_label, nodes, path) => {
    expect(check({ nodes, connections: [] }).map((issue) => issue.path)).toContain(path);
  });

  it('admits an expression wherever a value goes, but not a wrong literal beside it', () => {
    expect(check({ nodes: [node('a', 'x.http', { url: '{{ $trigger.url }}', retries: '{{ 3 }}' })], connections: [] })).toEqual([]);
    expect(check({ nodes: [node('a', 'x.http', { url: '{{ $trigger.url }}', retries: 'three' })], connections: [] }).map((i) => i.path)).toEqual([
      'nodes[0].params.retries',
    ]);
  });

  it('reports duplicate sticky-note ids', () => {
    const issues = check({ nodes: [], connections: [], notes: [{ id: 'n' }, { id: 'n' }] });
    expect(issues.map((issue) => issue.path)).toEqual(['notes[1].id']);
  });

  it('reports dangling connections: unknown ends, an output the source lacks, an input the target lacks', () => {
    const nodes = [node('s', 't.hook'), node('sw', 'x.switch', { cases: ['red'] }), node('m', 'x.merge')];
    const issues = check({
      nodes,
      connections: [
        { from: 'ghost', to: 's' },
        { from: 's', to: 'ghost' },
        { from: 's', output: 'error', to: 'sw' },
        { from: 'sw', output: 'red', to: 'm', input: 'a' },
        { from: 'sw', output: 'fallback', to: 'm', input: 'c' },
        { from: 'sw', output: 'blue', to: 'm', input: 'b' },
      ],
    });
    expect(issues.map((issue) => issue.path)).toEqual([
      'connections[0].from',
      'connections[1].to',
      'connections[2].output',
      'connections[4].input',
      'connections[5].output',
    ]);
  });

  it('refuses a cycle that passes no node allowing cycles, a self-loop included', () => {
    const nodes = [node('s', 't.hook'), node('a', 'x.merge'), node('b', 'x.http', { url: 'https://e.test' })];
    const cycle = check({ nodes, connections: [{ from: 's', to: 'a', input: 'a' }, { from: 'a', to: 'b' }, { from: 'b', to: 'a', input: 'b' }] });
    expect(cycle).toHaveLength(1);
    expect(cycle[0].path).toBe('connections[2]');
    expect(cycle[0].message).toContain('a → b → a');
    expect(check({ nodes, connections: [{ from: 'b', to: 'b' }] }).map((issue) => issue.path)).toEqual(['connections[0]']);
  });

  it('accepts a cycle through a node that allows cycles (a loop’s back edge)', () => {
    const nodes = [node('s', 't.hook'), node('loop', 'x.loop'), node('b', 'x.http', { url: 'https://e.test' })];
    expect(check({ nodes, connections: [{ from: 's', to: 'loop' }, { from: 'loop', output: 'item', to: 'b' }, { from: 'b', to: 'loop' }] })).toEqual([]);
  });

  it('reports pins on nodes that do not exist', () => {
    const issues = check({ nodes: [node('s', 't.hook')], connections: [], pins: { s: { output: 1, pinnedAt: 'x' }, gone: { output: 1, pinnedAt: 'x' } } });
    expect(issues.map((issue) => issue.path)).toEqual(['pins.gone']);
  });

  it.each(prototypeNames)('treats a node id, a parameter and a pin named %s as data', (name) => {
    const raw = JSON.parse(
      `{"nodes":[{"id":"s","type":"t.hook","version":1,"name":"s"},{"id":${JSON.stringify(name)},"type":"x.http","version":1,"name":"n","params":{"url":"https://e.test",${JSON.stringify(name)}:{"polluted":1}}}],"connections":[{"from":"s","to":${JSON.stringify(name)}}],"pins":{${JSON.stringify(name)}:{"output":1,"pinnedAt":"x"}}}`,
    );
    const parsed = graphInput.safeParse(raw);
    if (!parsed.success) return; // refused by the shape: a 400, never a crash
    const issues = validateGraph(parsed.data, catalogue);
    // The shape (zod's record) drops a `__proto__` key rather than keeping it as data; it never
    // reaches a prototype. Every other name stays a key the strict parameter schema refuses.
    expect(issues.map((issue) => issue.path)).toEqual(name === '__proto__' ? [] : ['nodes[1].params']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('triggerFactsOf', () => {
  const find = catalogue.find;

  it('names the trigger, the mailboxes a mail trigger watches and those the nodes use', () => {
    const facts = triggerFactsOf(
      { nodes: [node('m', 't.mail', { mailboxIds: [boxA, '{{ x }}'] }), node('send', 'x.send', { mailboxId: boxB }), node('s2', 'x.send', { mailboxId: '{{ y }}' })] },
      find,
    );
    expect(facts).toEqual({ triggerType: 'mail', triggerNodeId: 'm', triggerMailboxIds: [boxA], usedMailboxIds: [boxB] });
  });

  it('has no trigger and no mailboxes for an empty graph; a webhook trigger watches no mailbox', () => {
    expect(triggerFactsOf({ nodes: [] }, find)).toEqual({ triggerType: null, triggerNodeId: null, triggerMailboxIds: [], usedMailboxIds: [] });
    expect(triggerFactsOf({ nodes: [node('h', 't.hook')] }, find)).toMatchObject({ triggerType: 'webhook', triggerNodeId: 'h', triggerMailboxIds: [] });
  });
});
