/**
 * Node facts live on the node definition (contract/define-node.ts), not as type strings in the
 * engine, templates or the builder: each fact has its table here, so a new node type that forgets one
 * (or a fact that drifts from what the engine did when it tested type strings) fails by name.
 */
import { describe, expect, it } from 'vitest';
import { childKindOf, writesStepField, type NodeDefinition } from '../contract/define-node';
import { findNodeType, latestNodeTypes, nodeDefinitions, nodeRequirementsOf } from './registry';
import { loopNode } from './flow/loop.node';
import { subWorkflowNode } from './flow/sub-workflow.node';

const byType = (predicate: (definition: NodeDefinition) => boolean) =>
  [...new Set(nodeDefinitions.filter(predicate).map((definition) => definition.type))].sort();

describe('node facts on the definition', () => {
  it.each(nodeDefinitions.map((definition) => [`${definition.type}@${definition.version}`, definition] as const))('%s declares what it requires', (_name, definition) => {
    expect(Array.isArray(definition.requires)).toBe(true);
  });

  it('requires: a mailbox for the mail trigger, mail and signal nodes and the wait for a reply; outbound HTTP for the HTTP request', () => {
    const expectedMail = byType(
      (definition) => definition.type === 'trigger.mail' || definition.type === 'flow.wait_for_reply' || definition.type.startsWith('mail.') || definition.type.startsWith('signal.'),
    );
    expect(byType((definition) => definition.requires?.includes('mail') ?? false)).toEqual(expectedMail);
    expect(byType((definition) => definition.requires?.includes('http') ?? false)).toEqual(['http.request']);
    expect(nodeRequirementsOf('mail.send', 1)).toEqual(['mail']);
    expect(nodeRequirementsOf('not.a_type', 1)).toEqual([]);
  });

  it('child kind: a loop starts loop iterations, a sub-workflow called runs, and the engine reads it from the definition', () => {
    expect(childKindOf(loopNode)).toBe('loop_iteration');
    expect(childKindOf(subWorkflowNode)).toBe('sub_workflow');
    // What run-step.ts hands a node that declares nothing (the engine's default before the field existed).
    expect(childKindOf({})).toBe('sub_workflow');
    expect(byType((definition) => definition.childKind !== undefined)).toEqual(['flow.loop', 'flow.sub_workflow']);
  });

  it('persists its step first: the nodes that suspend or hand their step to others (flow, approval)', () => {
    expect(byType((definition) => definition.persistsStepFirst === true)).toEqual(byType((definition) => definition.category === 'flow' || definition.category === 'approval'));
    expect(byType((definition) => definition.persistsStepFirst === true)).toEqual(['approval.request', 'flow.loop', 'flow.sub_workflow', 'flow.wait', 'flow.wait_for_reply']);
  });

  it('extra step fields: only the loop writes the step’s `loop`', () => {
    expect(byType((definition) => writesStepField(definition, 'loop'))).toEqual(['flow.loop']);
    expect(writesStepField(loopNode, 'loop')).toBe(true);
    expect(writesStepField(subWorkflowNode, 'loop')).toBe(false);
  });

  it('versions: the logic nodes have a real version 2; a saved graph naming version 1 still finds it, the palette offers 2', () => {
    // Runs resolve a node by its saved type AND version (run/advance.ts → findNodeType): version 1 stays registered.
    // server/engine/run/case-insensitive-conditions.int.test.ts runs both versions on the real engine.
    for (const type of ['logic.if', 'logic.filter', 'logic.switch']) {
      expect(findNodeType(type, 1)?.version, type).toBe(1);
      expect(findNodeType(type, 2)?.version, type).toBe(2);
      // The palette (GET /api/v1/node-types, what the builder adds a node with) serves the newest.
      expect(latestNodeTypes().find((definition) => definition.type === type)?.version, type).toBe(2);
    }
  });
});
