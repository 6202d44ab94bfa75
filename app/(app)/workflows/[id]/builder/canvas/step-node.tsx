'use client';

/**
 * A node on the builder's canvas: name, type, one handle per input (left) and output (right, named
 * when there are several), and its state: disabled, pinned, the last test run's status, the server's
 * issues (red frame and count).
 */
import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import { cn } from '@/app/ui/cn';
import { colourClasses, statusColour } from '../../../../executions/_lib/status';
import { nodeMinHeight } from '../model/auto-layout';

export type StepNodeData = {
  name: string;
  typeLabel: string;
  inputs: string[];
  outputs: string[];
  portLabels: Record<string, string>;
  disabled: boolean;
  pinned: boolean;
  status: string | null;
  statusLabel: string | null;
  issueCount: number;
  badges: { disabled: string; pinned: string; issues: (count: number) => string };
};

export type StepFlowNode = Node<StepNodeData, 'step'>;

const portTop = (index: number, count: number) => `${((index + 1) * 100) / (count + 1)}%`;

function StepNodeView({ id, data, selected }: NodeProps<StepFlowNode>) {
  const named = data.outputs.length > 1 || (data.outputs[0] ?? 'main') !== 'main';
  return (
    <div
      data-testid="builder-node"
      data-node-id={id}
      data-status={data.status ?? 'none'}
      data-issues={data.issueCount}
      // Tall enough for its output labels to sit apart (a switch with many cases).
      style={{ minHeight: nodeMinHeight(data.outputs.length) }}
      className={cn(
        'relative w-52 rounded-lg border-2 bg-surface px-3 py-2 text-left text-fg shadow-xs',
        data.status ? colourClasses[statusColour(data.status)] : 'border-line-strong',
        data.issueCount > 0 && 'border-red-600 dark:border-red-400',
        data.disabled && 'border-dashed opacity-60',
        selected && 'ring-2 ring-brand ring-offset-2 ring-offset-surface',
      )}
    >
      {data.inputs.map((input, index) => (
        <Handle
          key={input}
          id={input}
          type="target"
          position={Position.Left}
          style={{ top: portTop(index, data.inputs.length) }}
          className="!h-3 !w-3 !border-2 !border-surface !bg-zinc-500"
          data-testid={`handle-in-${id}-${input}`}
          title={input}
        />
      ))}
      <p className="truncate pr-2 text-sm font-medium" title={data.name}>
        {data.name}
      </p>
      <p className="truncate font-mono text-[11px] text-muted" title={data.typeLabel}>
        {data.typeLabel}
      </p>
      {data.statusLabel || data.disabled || data.pinned || data.issueCount > 0 ? (
        <p className="mt-1 flex flex-wrap gap-x-2 text-[11px] font-medium">
          {data.statusLabel ? <span>{data.statusLabel}</span> : null}
          {data.disabled ? <span>{data.badges.disabled}</span> : null}
          {data.pinned ? <span className="text-brand">{data.badges.pinned}</span> : null}
          {data.issueCount > 0 ? <span className="text-red-700 dark:text-red-400">{data.badges.issues(data.issueCount)}</span> : null}
        </p>
      ) : null}
      {data.outputs.map((output, index) => (
        <Handle
          key={output}
          id={output}
          type="source"
          position={Position.Right}
          style={{ top: portTop(index, data.outputs.length) }}
          className={cn('!h-3 !w-3 !border-2 !border-surface', output === 'error' ? '!bg-red-500' : '!bg-brand')}
          data-testid={`handle-out-${id}-${output}`}
          title={data.portLabels[output] ?? output}
        >
          {named ? (
            <span className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 rounded bg-surface/90 px-1 text-[10px] whitespace-nowrap text-muted">
              {data.portLabels[output] ?? output}
            </span>
          ) : null}
        </Handle>
      ))}
    </div>
  );
}

export const StepNode = memo(StepNodeView);
