'use client';

/**
 * What the generated node forms need beyond the node: the member's mailboxes, tables, connections
 * and workflows for the pickers, and the sample scope expressions are previewed and completed
 * against (the last test run's data, pinned outputs taking precedence).
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTRPC } from '@/app/lib/trpc';
import type { ParamsFormContext, PickerItem } from '../../_components/params';
import type { SampleScope } from '../../_components/expression';
import type { TestRunDetail } from './api';
import type { EditorGraph } from './model/editor-graph';

function pickerItems(items: readonly object[] | undefined): PickerItem[] {
  return (items ?? []).map((item) => {
    const record = item as Record<string, unknown>;
    const text = (key: string) => (typeof record[key] === 'string' ? (record[key] as string) : undefined);
    return { id: String(record.id), label: text('label'), name: text('name') ?? text('displayName'), address: text('address'), email: text('email'), slug: text('slug'), type: text('type') };
  });
}

export function usePickerLists(): Omit<ParamsFormContext, 'sampleScope'> {
  const trpc = useTRPC();
  const options = { staleTime: 60_000, retry: false } as const;
  const mailboxes = useQuery({ ...trpc.mailboxes.list.queryOptions(), ...options });
  const tables = useQuery({ ...trpc.tables.list.queryOptions(), ...options });
  const connections = useQuery({ ...trpc.connections.list.queryOptions({}), ...options });
  const workflows = useQuery({ ...trpc.workflows.list.queryOptions(), ...options });
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

/** The scope a node's expressions would see, from the last test run and the pins; null with neither. */
export function sampleScopeFor(graph: EditorGraph, nodeId: string, run: TestRunDetail | null): SampleScope | null {
  const nodes: Record<string, unknown> = {};
  for (const step of run?.steps ?? []) if (step.data !== null) nodes[step.nodeId] = step.data;
  for (const [pinned, pin] of Object.entries(graph.pins)) nodes[pinned] = pin.output;
  if (!run && Object.keys(nodes).length === 0) return null;
  const upstream = graph.connections.find((connection) => connection.to === nodeId && (connection.input ?? 'main') === 'main');
  return {
    trigger: run?.triggerData ?? {},
    input: upstream ? (nodes[upstream.from] ?? {}) : {},
    nodes,
    execution: { id: run?.id ?? '', workflowId: run?.workflowId ?? '', simulated: true },
    now: new Date().toISOString(),
  };
}
