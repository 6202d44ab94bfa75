'use client';

/**
 * What the generated node forms need beyond the node: the member's mailboxes, tables, connections
 * and workflows for the pickers, and the sample scope expressions are previewed and completed
 * against (the last test run's data, pinned outputs taking precedence).
 */
import { useMemo } from 'react';
import type { ParamsFormContext, PickerItem } from '../../_components/params';
import type { SampleScope } from '../../_components/expression';
import type { JsonSchemaLike, ScopeShapes } from '../../_components/expression/_lib/known-fields';
import { usePickerQueries, type TestRunDetail } from './api';
import type { EditorGraph } from './model/editor-graph';

function pickerItems(items: readonly object[] | undefined): PickerItem[] {
  return (items ?? []).map((item) => {
    const record = item as Record<string, unknown>;
    const text = (key: string) => (typeof record[key] === 'string' ? (record[key] as string) : undefined);
    return { id: String(record.id), label: text('label'), name: text('name') ?? text('displayName'), address: text('address'), email: text('email'), slug: text('slug'), type: text('type') };
  });
}

export function usePickerLists(): Omit<ParamsFormContext, 'sampleScope'> {
  const { mailboxes, tables, connections, workflows } = usePickerQueries();
  return useMemo(
    () => ({
      mailboxes: pickerItems(mailboxes.data?.mailboxes),
      tables: pickerItems(tables.data?.tables),
      connections: pickerItems(connections.data?.items),
      workflows: pickerItems(workflows.data?.workflows),
    }),
    [mailboxes.data, tables.data, connections.data, workflows.data],
  );
}

/** The output shapes the node types declare (a mail trigger's fields), for the scope's parts. */
function shapesFor(graph: EditorGraph, nodeId: string, outputSchemaOf: (type: string) => JsonSchemaLike | null | undefined): ScopeShapes {
  const nodes: Record<string, JsonSchemaLike> = {};
  for (const node of graph.nodes) {
    const schema = outputSchemaOf(node.type);
    if (schema) nodes[node.id] = schema;
  }
  const trigger = graph.nodes.find((node) => node.type.startsWith('trigger.'));
  const upstream = graph.connections.find((connection) => connection.to === nodeId && (connection.input ?? 'main') === 'main');
  return { trigger: trigger ? nodes[trigger.id] : undefined, input: upstream ? nodes[upstream.from] : undefined, nodes };
}

/**
 * The scope a node's expressions would see, from the last test run and the pins, with the shapes
 * known without a run (completion reads both; the preview evaluates the data only); null with none.
 */
export function sampleScopeFor(
  graph: EditorGraph,
  nodeId: string,
  run: TestRunDetail | null,
  outputSchemaOf: (type: string) => JsonSchemaLike | null | undefined = () => null,
): SampleScope | null {
  const nodes: Record<string, unknown> = {};
  for (const step of run?.steps ?? []) if (step.data !== null) nodes[step.nodeId] = step.data;
  for (const [pinned, pin] of Object.entries(graph.pins)) nodes[pinned] = pin.output;
  const shapes = shapesFor(graph, nodeId, outputSchemaOf);
  if (!run && Object.keys(nodes).length === 0 && Object.keys(shapes.nodes ?? {}).length === 0) return null;
  const upstream = graph.connections.find((connection) => connection.to === nodeId && (connection.input ?? 'main') === 'main');
  return {
    shapes,
    trigger: run?.triggerData ?? {},
    input: upstream ? (nodes[upstream.from] ?? {}) : {},
    nodes,
    execution: { id: run?.id ?? '', workflowId: run?.workflowId ?? '', simulated: true },
    now: new Date().toISOString(),
  };
}
