/**
 * Node types declare the API-key scopes their use implies (issue 18, item 4): the mapping of every
 * type of the registry, so a new node type without a declaration (or a row here) fails, and the
 * parameter rules (a connection, a classification written, a called workflow).
 */
import { describe, expect, it } from 'vitest';
import { isScope } from '../../core/auth/scopes';
import { nodeDefinitions } from '../nodes/registry';
import { graphScopes, nodeScopes, parameterFields, parameterInUse } from './required-scopes';

/** type → [scopes its use implies, parameter → scopes it implies in use, workflow parameters]. */
const expected: Record<string, [string[], Record<string, string[]>?, string[]?]> = {
  'trigger.mail': [['messages:read'], { senderCard: ['contacts:read'] }],
  'trigger.webhook': [[]],
  'trigger.schedule': [[]],
  'trigger.workflow_failure': [['executions:read', 'messages:read']],
  'logic.if': [[]],
  'logic.filter': [[]],
  'logic.switch': [[]],
  'logic.merge': [[]],
  'data.set': [[]],
  'data.datetime': [[]],
  'flow.wait': [[]],
  'flow.wait_for_reply': [['messages:read']],
  'flow.sub_workflow': [[], {}, ['workflowId']],
  'flow.loop': [[], {}, ['workflowId']],
  'http.request': [[], { credentialId: ['connections:read'] }],
  'mail.move': [['messages:write']],
  'mail.flag': [['messages:write']],
  'mail.label': [['messages:write']],
  'mail.mark_read': [['messages:write']],
  'mail.send': [['messages:read', 'review:write']],
  'mail.draft': [['messages:read', 'review:write']],
  'mail.read_thread': [['messages:read']],
  'tables.lookup': [['tables:read']],
  'tables.insert': [['tables:write']],
  'tables.update': [['tables:write']],
  'tables.upsert': [['tables:write']],
  'contacts.lookup': [['contacts:read']],
  'notify.owner': [['notifications:write']],
  'signal.mark': [['messages:write']],
  'approval.request': [['approvals:write']],
  'ai.classify': [['messages:read'], { writeClassification: ['messages:write'] }],
  'ai.extract': [['messages:read']],
  'ai.compose': [['messages:read']],
  'ai.general': [[]],
};

const node = (type: string, params: Record<string, unknown> = {}) => ({ id: type.replace('.', '-'), type, version: 1, name: type, params });

describe('node types declare the scopes their use implies', () => {
  it('every node type of the registry has a row in this table, and every row a node type', () => {
    expect([...new Set(nodeDefinitions.map((definition) => definition.type))].sort()).toEqual(Object.keys(expected).sort());
  });

  it.each(nodeDefinitions.map((definition) => [`${definition.type}@${definition.version}`, definition] as const))('%s declares its scopes as the table says', (_name, definition) => {
    const [scopes, parameterScopes = {}, workflowParams = []] = expected[definition.type];
    expect(definition.scopes, 'a node type must declare `scopes` (an empty list when it implies nothing)').toBeDefined();
    expect([...definition.scopes!].sort()).toEqual(scopes);
    expect(definition.parameterScopes ?? {}).toEqual(parameterScopes);
    expect([...(definition.workflowParams ?? [])]).toEqual(workflowParams);
    for (const scope of [...definition.scopes!, ...Object.values(definition.parameterScopes ?? {}).flat()]) expect(isScope(scope), scope).toBe(true);
  });

  it('a node type whose parameters take a connection (`credentialId`) implies connections:read when one is set', () => {
    const takers = nodeDefinitions.filter((definition) => parameterFields(definition.params).has('credentialId'));
    expect(takers.map((definition) => definition.type)).toContain('http.request');
    for (const definition of takers) {
      expect(nodeScopes(definition, { credentialId: '0a8f1c52-5f44-4a8e-9f0e-1d2c3b4a5e6f' })).toContain('connections:read');
      expect(nodeScopes(definition, { credentialId: '{{ $trigger.connection }}' })).toContain('connections:read');
      expect(nodeScopes(definition, {})).not.toContain('connections:read');
    }
  });

  it('a node type whose parameters name a workflow declares it among its workflow parameters', () => {
    for (const definition of nodeDefinitions) {
      if (parameterFields(definition.params).has('workflowId')) expect(definition.workflowParams, definition.type).toContain('workflowId');
    }
  });
});

describe('the scopes a graph implies', () => {
  it('adds up its nodes’ scopes with the node types that need each', () => {
    const { needs } = graphScopes({ nodes: [node('trigger.mail'), node('http.request', { url: 'https://x.test' }), node('mail.move', { folder: 'archive' }), node('ai.extract')] });
    expect(Object.fromEntries([...needs].map(([scope, types]) => [scope, [...types]]))).toEqual({
      'messages:read': ['trigger.mail', 'ai.extract'],
      // The sender's card is on by default: the trigger reads the address book.
      'contacts:read': ['trigger.mail'],
      'messages:write': ['mail.move'],
    });
    const cardless = graphScopes({ nodes: [node('trigger.mail', { senderCard: false })] });
    expect([...cardless.needs.keys()]).toEqual(['messages:read']);
  });

  it('counts a parameter by its default when absent: a classification is written unless `writeClassification` is false', () => {
    const classify = nodeDefinitions.find((definition) => definition.type === 'ai.classify')!;
    expect(nodeScopes(classify, {}).sort()).toEqual(['messages:read', 'messages:write']);
    expect(nodeScopes(classify, { writeClassification: true }).sort()).toEqual(['messages:read', 'messages:write']);
    expect(nodeScopes(classify, { writeClassification: false })).toEqual(['messages:read']);
    // An expression is known only at run time: it counts.
    expect(nodeScopes(classify, { writeClassification: '{{ false }}' }).sort()).toEqual(['messages:read', 'messages:write']);
  });

  it('reading the triggering message’s attachments (`attachments: pdf_and_text`) needs what reading the message needs: messages:read', () => {
    // The attachments are the member's mail, read through the same download a key with messages:read may make.
    for (const type of ['ai.extract', 'ai.classify']) {
      const definition = nodeDefinitions.find((candidate) => candidate.type === type)!;
      const off = nodeScopes(definition, { writeClassification: false });
      const on = nodeScopes(definition, { writeClassification: false, attachments: 'pdf_and_text' });
      expect(on).toEqual(off);
      expect(on).toContain('messages:read');
    }
  });

  it('counts disabled nodes too, and leaves unknown node types to validation', () => {
    const { needs } = graphScopes({ nodes: [{ ...node('tables.insert'), disabled: true }, node('nope.nope')] });
    expect([...needs.keys()]).toEqual(['tables:write']);
  });

  it('lists the workflows a sub-workflow or loop calls; an expression target may call any', () => {
    const target = 'A0A8F1C5-5F44-4A8E-9F0E-1D2C3B4A5E6F';
    const literal = graphScopes({ nodes: [node('flow.sub_workflow', { workflowId: target }), node('flow.loop', { workflowId: target, items: [] })] });
    expect(literal).toMatchObject({ calledWorkflowIds: [target.toLowerCase()], callsAnyWorkflow: false });
    const dynamic = graphScopes({ nodes: [node('flow.loop', { workflowId: '{{ $trigger.target }}', items: [] })] });
    expect(dynamic).toMatchObject({ calledWorkflowIds: [], callsAnyWorkflow: true });
  });

  it('reads a stored graph defensively', () => {
    for (const stored of [null, {}, { nodes: 'x' }, { nodes: [null, 3, { type: 7 }] }]) expect(graphScopes(stored)).toEqual({ needs: new Map(), calledWorkflowIds: [], callsAnyWorkflow: false });
  });

  it.each([
    [undefined, false],
    [null, false],
    [false, false],
    ['  ', false],
    [[], false],
    [true, true],
    ['x', true],
    [0, true],
    [['a'], true],
  ])('a parameter set to %j is in use: %s', (value, inUse) => {
    expect(parameterInUse(value)).toBe(inUse);
  });
});
