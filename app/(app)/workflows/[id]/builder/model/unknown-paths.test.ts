/**
 * Issue 19 §6: a path that matches nothing known gets a warning at save (severity `warning`, on the
 * node's field; it never blocks saving, publishing or a test run).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { findNodeType } from '@/server/engine/nodes/registry';
import { editorGraphOf } from './editor-graph';
import { unknownPathWarnings } from './unknown-paths';

const mailShape = z.toJSONSchema(findNodeType('trigger.mail', 1)!.output!, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
const outputSchemaOf = (type: string) => (type === 'trigger.mail' ? mailShape : null);
const sentence = (path: string) => `unknown: ${path}`;

function graphWith(left: string, pins: Record<string, unknown> = {}) {
  return editorGraphOf({
    id: 'w',
    workflowId: 'w',
    nodes: [
      { id: 'mail', type: 'trigger.mail', version: 1, name: 'Mail', params: {} },
      { id: 'check', type: 'logic.if', version: 1, name: 'If', params: { conditions: [{ left, operator: 'contains', right: 'x' }] } },
    ],
    connections: [{ from: 'mail', output: 'main', to: 'check' }],
    pins,
  });
}

describe('unknown expression paths warn at save', () => {
  it('a misspelt trigger field warns at the parameter, with severity warning', () => {
    expect(unknownPathWarnings(graphWith('{{ trigger.subjct }}'), { outputSchemaOf, run: null }, sentence)).toEqual([
      { path: 'nodes[1].params.conditions[0].left', message: 'unknown: trigger.subjct', severity: 'warning' },
    ]);
  });

  it('known fields of the trigger, the input and a node say nothing, without any run', () => {
    for (const left of ['{{ trigger.subject }}', '{{ input.from.email }}', '{{ nodes.mail.to.email }}', '{{ $lowercase(trigger.subject) }}', 'plain text trigger.nope']) {
      expect(unknownPathWarnings(graphWith(left), { outputSchemaOf, run: null }, sentence), left).toEqual([]);
    }
  });

  it('a node id the graph does not have warns', () => {
    expect(unknownPathWarnings(graphWith('{{ nodes.ghost.value }}'), { outputSchemaOf, run: null }, sentence)).toHaveLength(1);
  });

  it('the last test run’s and pinned data count as known; a key they lack warns only where no shape admits it', () => {
    const run = { triggerData: { subject: 'x' }, steps: [{ nodeId: 'check', data: { total: 3 } }] };
    const webhook = (left: string) =>
      editorGraphOf({
        id: 'w',
        workflowId: 'w',
        nodes: [
          { id: 'hook', type: 'trigger.webhook', version: 1, name: 'Hook', params: {} },
          { id: 'check', type: 'logic.if', version: 1, name: 'If', params: { conditions: [{ left, operator: 'is_empty' }] } },
        ],
        connections: [{ from: 'hook', output: 'main', to: 'check' }],
      });
    expect(unknownPathWarnings(webhook('{{ trigger.subject }}'), { outputSchemaOf, run }, sentence)).toEqual([]);
    expect(unknownPathWarnings(webhook('{{ trigger.total }}'), { outputSchemaOf, run }, sentence)).toHaveLength(1);
    // Nothing known about a webhook's data without a run: no warning.
    expect(unknownPathWarnings(webhook('{{ trigger.anything }}'), { outputSchemaOf, run: null }, sentence)).toEqual([]);
    expect(unknownPathWarnings(graphWith('{{ nodes.check.total }}'), { outputSchemaOf, run }, sentence)).toEqual([]);
  });
});
