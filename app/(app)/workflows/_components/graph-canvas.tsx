'use client';

/**
 * A workflow graph drawn read-only (@xyflow/react): nodes at their position, edges from the
 * connections, each node framed in its step's status colour when a run is shown. Clicking a node
 * selects it when the page offers a selection (the execution page's step detail).
 */
import { Background, Controls, Handle, Position, ReactFlow, type Edge, type Node, type NodeProps } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useMemo } from 'react';
import { useI18n } from '@/app/i18n/client';
import { useTheme } from '@/app/lib/use-theme';
import { cn } from '@/app/ui/cn';
import { colourClasses, statusColour } from '../../executions/_lib/status';
import { canvasModel } from '../_lib/graph-model';

type StepNodeData = {
  name: string;
  type: string;
  status: string | null;
  statusLabel: string | null;
  disabled: boolean;
  disabledLabel: string;
  selected: boolean;
};

type StepNode = Node<StepNodeData, 'step'>;

function StepNodeView({ data }: NodeProps<StepNode>) {
  return (
    <div
      data-testid="canvas-node"
      data-status={data.status ?? 'none'}
      className={cn(
        'w-48 rounded-lg border-2 px-3 py-2 text-left text-fg shadow-xs',
        colourClasses[statusColour(data.status)],
        data.disabled && 'border-dashed opacity-60',
        data.selected && 'ring-2 ring-brand ring-offset-2 ring-offset-surface',
      )}
    >
      <Handle type="target" position={Position.Left} isConnectable={false} className="!bg-zinc-400" />
      <p className="truncate text-sm font-medium" title={data.name}>
        {data.name}
      </p>
      <p className="truncate font-mono text-[11px] text-muted" title={data.type}>
        {data.type}
      </p>
      {data.statusLabel || data.disabled ? (
        <p className="mt-1 text-[11px] font-medium">{[data.statusLabel, data.disabled ? data.disabledLabel : null].filter(Boolean).join(' · ')}</p>
      ) : null}
      <Handle type="source" position={Position.Right} isConnectable={false} className="!bg-zinc-400" />
    </div>
  );
}

const nodeTypes = { step: StepNodeView };

export function GraphCanvas({
  graph,
  statusByNode,
  selectedNodeId,
  onSelectNode,
  label,
  emptyText,
  className,
}: {
  graph: unknown;
  statusByNode?: Record<string, string>;
  selectedNodeId?: string | null;
  onSelectNode?: (nodeId: string) => void;
  label: string;
  emptyText?: string;
  className?: string;
}) {
  const { t } = useI18n();
  const [theme] = useTheme();
  const model = useMemo(() => canvasModel(graph, statusByNode ?? {}), [graph, statusByNode]);
  const nodes = useMemo<StepNode[]>(
    () =>
      model.nodes.map((node) => ({
        id: node.id,
        type: 'step',
        position: node.position,
        draggable: false,
        connectable: false,
        selectable: Boolean(onSelectNode),
        data: {
          name: node.name,
          type: node.type,
          status: node.status,
          statusLabel: node.status ? (t.executions.status[node.status] ?? node.status) : null,
          disabled: node.disabled,
          disabledLabel: t.workflows.canvas.disabled,
          selected: node.id === selectedNodeId,
        },
      })),
    [model, onSelectNode, selectedNodeId, t],
  );
  const edges = useMemo<Edge[]>(
    () =>
      model.edges.map((edge) => ({
        id: edge.id,
        source: edge.source,
        target: edge.target,
        // The port in the builder's words ("no reply" for a wait's `timeout`); a switch's case by its name.
        label: edge.label ? (t.builder.ports[edge.label] ?? edge.label) : undefined,
        animated: statusByNode?.[edge.target] === 'running',
      })),
    [model, statusByNode, t],
  );

  if (model.nodes.length === 0 && emptyText) {
    return (
      <div className={cn('flex h-40 items-center justify-center rounded-lg border border-dashed border-line-strong text-sm text-muted', className)}>
        {emptyText}
      </div>
    );
  }

  return (
    <div role="group" aria-label={label} data-testid="graph-canvas" className={cn('h-[420px] overflow-hidden rounded-lg border border-line bg-subtle/30', className)}>
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        fitView
        fitViewOptions={{ padding: 0.2, maxZoom: 1.2 }}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={Boolean(onSelectNode)}
        onNodeClick={onSelectNode ? (_event, node) => onSelectNode(node.id) : undefined}
        minZoom={0.2}
        colorMode={theme}
      >
        <Background gap={16} />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
