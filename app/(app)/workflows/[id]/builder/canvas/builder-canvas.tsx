'use client';

/**
 * The builder's canvas (@xyflow/react): the graph's nodes and sticky notes, its connections (data
 * solid, service dashed, the last test run's path animated), pan, zoom, minimap, snap. React Flow
 * keeps the live state of a gesture (a drag, a resize); the graph changes (one undo step) when the
 * gesture ends. Keys are the builder's (see use-builder-keys.ts), not React Flow's.
 */
import {
  applyEdgeChanges,
  applyNodeChanges,
  Background,
  Controls,
  MarkerType,
  MiniMap,
  ReactFlow,
  useReactFlow,
  type Connection,
  type Edge,
  type EdgeChange,
  type Node,
  type NodeChange,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { useTheme } from '@/app/lib/use-theme';
import type { NodeType } from '../api';
import { connect, moveItems, updateNote, type EditorConnection, type EditorGraph, type XY } from '../model/editor-graph';
import type { IssuesByItem } from '../model/issues';
import { NoteNode, type NoteFlowNode } from './note-node';
import { inputsOf, outputsOf } from './ports';
import { StepNode, type StepFlowNode } from './step-node';

export const paletteDragType = 'application/x-mailflow-node-type';
export const snapGrid: [number, number] = [16, 16];

const flowNodeTypes = { step: StepNode, note: NoteNode };

type FlowNode = StepFlowNode | NoteFlowNode;

export interface CanvasSelection {
  items: string[];
  connections: EditorConnection[];
}

export function connectionOfEdge(edge: Pick<Edge, 'source' | 'target' | 'sourceHandle' | 'targetHandle'>): EditorConnection {
  return { from: edge.source, output: edge.sourceHandle ?? 'main', to: edge.target, ...(edge.targetHandle && edge.targetHandle !== 'main' ? { input: edge.targetHandle } : {}) };
}

export function BuilderCanvas({
  graph,
  typesByName,
  statusByNode,
  issues,
  readOnly,
  onCommit,
  selectRequest,
  onSelectionChange,
  onDropType,
}: {
  graph: EditorGraph;
  typesByName: Map<string, NodeType>;
  statusByNode: Record<string, string>;
  issues: IssuesByItem;
  readOnly: boolean;
  onCommit: (next: EditorGraph) => void;
  /** Items to select once (what an edit just created), replacing the selection. */
  selectRequest?: { ids: string[] } | null;
  onSelectionChange: (selection: CanvasSelection) => void;
  onDropType: (type: NodeType, position: XY) => void;
}) {
  const { t } = useI18n();
  const b = t.builder;
  const flow = useReactFlow();
  // The minimap and zoom controls draw in the member's theme (React Flow's `system` follows the browser).
  const [theme] = useTheme();

  const onResized = useCallback(
    (id: string, box: { x: number; y: number; width: number; height: number }) => {
      onCommit(updateNote(graph, id, { position: { x: box.x, y: box.y }, size: { width: box.width, height: box.height } }));
    },
    [graph, onCommit],
  );

  const built = useMemo<FlowNode[]>(() => {
    const notes: NoteFlowNode[] = graph.notes.map((note) => ({
      id: note.id,
      type: 'note',
      position: note.position,
      width: note.size.width,
      height: note.size.height,
      zIndex: -1,
      draggable: !readOnly,
      data: { text: note.text, color: note.color, placeholder: b.note.placeholder, onResized },
    }));
    const steps: StepFlowNode[] = graph.nodes.map((node) => {
      const type = typesByName.get(node.type);
      const status = Object.hasOwn(statusByNode, node.id) ? statusByNode[node.id] : null;
      return {
        id: node.id,
        type: 'step',
        position: node.position,
        draggable: !readOnly,
        connectable: !readOnly,
        data: {
          name: node.name,
          typeLabel: type?.label ?? node.type,
          inputs: inputsOf(type),
          outputs: outputsOf(node, type),
          portLabels: b.ports,
          disabled: node.disabled === true,
          pinned: Object.hasOwn(graph.pins, node.id),
          status,
          statusLabel: status ? (t.executions.status[status] ?? status) : null,
          issueCount: issues.nodes.get(node.id)?.length ?? 0,
          badges: { disabled: t.workflows.canvas.disabled, pinned: b.pinned, issues: b.issueCount },
        },
      };
    });
    return [...notes, ...steps];
  }, [graph, typesByName, statusByNode, issues, readOnly, b, t, onResized]);

  const builtEdges = useMemo<Edge[]>(
    () =>
      graph.connections.map((connection, index) => {
        const broken = issues.connections.has(index);
        const ran = statusByNode[connection.from] === 'succeeded' && Object.hasOwn(statusByNode, connection.to);
        return {
          id: `${connection.from}:${connection.output}->${connection.to}:${connection.input ?? 'main'}`,
          source: connection.from,
          sourceHandle: connection.output,
          target: connection.to,
          targetHandle: connection.input ?? 'main',
          animated: ran,
          markerEnd: { type: MarkerType.ArrowClosed, width: 16, height: 16 },
          style: {
            ...(connection.kind === 'service' ? { strokeDasharray: '6 4' } : {}),
            ...(broken ? { stroke: 'rgb(220 38 38)' } : {}),
            strokeWidth: ran ? 2.5 : 1.5,
          },
          data: { kind: connection.kind ?? 'data' },
        };
      }),
    [graph.connections, issues.connections, statusByNode],
  );

  // React Flow's own copy: gestures change it live; the graph is rebuilt into it, keeping what only
  // React Flow knows (measured sizes, selection).
  const [nodes, setNodes] = useState<FlowNode[]>(built);
  // Fit the view to what was loaded; an empty canvas keeps zoom 1, so the first node dropped does not zoom the view.
  const [fitOnLoad] = useState(built.length > 0);
  const [edges, setEdges] = useState<Edge[]>(builtEdges);
  const selectApplied = useRef<{ ids: string[] } | null>(null);
  useEffect(() => {
    const select = selectRequest && selectRequest !== selectApplied.current ? new Set(selectRequest.ids) : null;
    if (select) selectApplied.current = selectRequest ?? null;
    setNodes((previous) => {
      const byId = new Map(previous.map((node) => [node.id, node]));
      return built.map((node) => {
        const before = byId.get(node.id);
        if (before) return { ...node, selected: select ? select.has(node.id) : before.selected, measured: before.measured } as FlowNode;
        return select?.has(node.id) ? ({ ...node, selected: true } as FlowNode) : node;
      });
    });
  }, [built, selectRequest]);
  useEffect(() => {
    setEdges((previous) => {
      const selected = new Set(previous.filter((edge) => edge.selected).map((edge) => edge.id));
      return builtEdges.map((edge) => (selected.has(edge.id) ? { ...edge, selected: true } : edge));
    });
  }, [builtEdges]);

  const onNodesChange = useCallback((changes: NodeChange<FlowNode>[]) => {
    // Removal goes through the builder's Delete key (one undo step with the connections).
    setNodes((current) => applyNodeChanges(changes.filter((change) => change.type !== 'remove'), current));
  }, []);
  const onEdgesChange = useCallback((changes: EdgeChange[]) => {
    setEdges((current) => applyEdgeChanges(changes.filter((change) => change.type !== 'remove'), current));
  }, []);

  // Selection reported to the builder (inspector, shortcuts).
  useEffect(() => {
    onSelectionChange({
      items: nodes.filter((node) => node.selected).map((node) => node.id),
      connections: edges.filter((edge) => edge.selected).map(connectionOfEdge),
    });
  }, [nodes, edges, onSelectionChange]);

  const onDragStop = useCallback(
    (_event: unknown, _node: Node, dragged: Node[]) => {
      const positions = new Map(dragged.map((node) => [node.id, { x: Math.round(node.position.x), y: Math.round(node.position.y) }]));
      onCommit(moveItems(graph, positions));
    },
    [graph, onCommit],
  );

  const onConnect = useCallback(
    (connection: Connection) => {
      onCommit(connect(graph, connectionOfEdge(connection)));
    },
    [graph, onCommit],
  );

  const onDragOver = useCallback((event: DragEvent) => {
    if (!event.dataTransfer.types.includes(paletteDragType)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  }, []);
  const onDrop = useCallback(
    (event: DragEvent) => {
      const name = event.dataTransfer.getData(paletteDragType);
      const type = typesByName.get(name);
      if (!type || readOnly) return;
      event.preventDefault();
      const point = flow.screenToFlowPosition({ x: event.clientX, y: event.clientY });
      onDropType(type, { x: Math.round(point.x - 104), y: Math.round(point.y - 30) });
    },
    [flow, onDropType, readOnly, typesByName],
  );

  return (
    <div className="h-full w-full" data-testid="builder-canvas" onDragOver={onDragOver} onDrop={onDrop}>
      <ReactFlow<FlowNode>
        nodes={nodes}
        edges={edges}
        nodeTypes={flowNodeTypes}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onNodeDragStop={onDragStop}
        onConnect={onConnect}
        isValidConnection={(connection) => connection.source !== connection.target}
        nodesDraggable={!readOnly}
        nodesConnectable={!readOnly}
        snapToGrid
        snapGrid={snapGrid}
        deleteKeyCode={null}
        selectionKeyCode="Shift"
        multiSelectionKeyCode={['Meta', 'Control']}
        fitView={fitOnLoad}
        fitViewOptions={{ padding: 0.2, maxZoom: 1.2 }}
        minZoom={0.1}
        maxZoom={2}
        onlyRenderVisibleElements
        proOptions={{ hideAttribution: true }}
        colorMode={theme}
        aria-label={b.canvasLabel}
      >
        <Background gap={snapGrid[0]} />
        <Controls showInteractive={false} />
        <MiniMap pannable zoomable ariaLabel={b.minimap} className="!bg-surface" style={{ width: 150, height: 100 }} />
      </ReactFlow>
    </div>
  );
}
