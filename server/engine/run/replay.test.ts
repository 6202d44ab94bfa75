import { describe, expect, it } from 'vitest';
import type { ExecutionStep } from '../../generated/prisma/client';
import { domainsOf, keptSteps, nodesOf, previewEffects } from './replay';

const step = (nodeId: string, status: string, effects: unknown[] = []): ExecutionStep =>
  ({ id: `step-${nodeId}`, nodeId, status, effects }) as unknown as ExecutionStep;

const graph = {
  nodes: [
    { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook' },
    { id: 'a', type: 'data.set', version: 1, name: 'Set' },
    { id: 'call', type: 'http.request', version: 1, name: 'Call' },
    { id: 'off', type: 'http.request', version: 1, name: 'Disabled', disabled: true },
  ],
};

describe('domainsOf (an exclusion of a domain covers its subdomains)', () => {
  it.each([
    ['boss@mail.corp.test', ['mail.corp.test', 'corp.test', 'test']],
    ['A@Example.COM', ['example.com', 'com']],
    ['no-at-sign', []],
    ['trailing@', []],
  ])('%s → %j', (email, expected) => {
    expect(domainsOf(email)).toEqual(expected);
  });
});

describe('nodesOf', () => {
  it('reads nodes defensively from stored JSON', () => {
    expect(nodesOf(null)).toEqual([]);
    expect(nodesOf({ nodes: 'x' })).toEqual([]);
    expect(nodesOf({ nodes: [null, { id: 1 }, { id: 'n', type: 't' }] })).toEqual([{ id: 'n', type: 't', version: 1, name: 'n', disabled: false }]);
  });
});

describe('keptSteps (replay from the failed step keeps succeeded steps by node)', () => {
  it('keeps succeeded steps of nodes still in the graph, not failed or removed ones', () => {
    const steps = [step('start', 'succeeded'), step('a', 'succeeded'), step('call', 'failed'), step('gone', 'succeeded'), step('off', 'skipped')];
    expect(keptSteps(steps, graph).map((kept) => kept.nodeId)).toEqual(['start', 'a']);
  });
});

describe('previewEffects (the effects a replay would make again)', () => {
  const steps = [step('start', 'succeeded'), step('a', 'succeeded', [{ kind: 'keyed', description: 'row' }]), step('call', 'failed', [{ kind: 'external', description: 'POST' }])];

  it('from the start: every recorded effect of nodes still in the graph, disabled nodes left out', () => {
    expect(previewEffects(steps, graph, 'start')).toEqual([
      { nodeId: 'a', nodeName: 'Set', kind: 'keyed', description: 'row' },
      { nodeId: 'call', nodeName: 'Call', kind: 'external', description: 'POST' },
    ]);
  });

  it('from the failed step: only nodes not kept', () => {
    expect(previewEffects(steps, graph, 'failed_step')).toEqual([{ nodeId: 'call', nodeName: 'Call', kind: 'external', description: 'POST' }]);
  });

  it('lists nothing for a node whose type acts on nothing outside the run (the webhook trigger)', () => {
    expect(previewEffects([], { nodes: [graph.nodes[0]] }, 'start')).toEqual([]);
  });
});
