'use client';

/** A sticky note on the canvas: its text in one of the spec's five colours, resizable within its bounds. */
import { NodeResizer, type Node, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import { cn } from '@/app/ui/cn';
import type { StickyColor } from '../model/editor-graph';

export type NoteNodeData = {
  text: string;
  color: StickyColor;
  placeholder: string;
  onResized: (id: string, box: { x: number; y: number; width: number; height: number }) => void;
};

export type NoteFlowNode = Node<NoteNodeData, 'note'>;

export const noteColourClasses: Record<StickyColor, string> = {
  jaune: 'bg-yellow-100 border-yellow-300 text-yellow-950 dark:bg-yellow-900/40 dark:border-yellow-700 dark:text-yellow-50',
  menthe: 'bg-emerald-100 border-emerald-300 text-emerald-950 dark:bg-emerald-900/40 dark:border-emerald-700 dark:text-emerald-50',
  ciel: 'bg-sky-100 border-sky-300 text-sky-950 dark:bg-sky-900/40 dark:border-sky-700 dark:text-sky-50',
  rose: 'bg-pink-100 border-pink-300 text-pink-950 dark:bg-pink-900/40 dark:border-pink-700 dark:text-pink-50',
  lavande: 'bg-violet-100 border-violet-300 text-violet-950 dark:bg-violet-900/40 dark:border-violet-700 dark:text-violet-50',
};

export const noteBounds = { minWidth: 120, minHeight: 80, maxWidth: 2_000, maxHeight: 2_000 } as const;

function NoteNodeView({ id, data, selected }: NodeProps<NoteFlowNode>) {
  return (
    <div data-testid="builder-note" data-color={data.color} className={cn('h-full w-full overflow-hidden rounded-md border p-3 text-sm shadow-xs', noteColourClasses[data.color])}>
      <NodeResizer
        isVisible={selected}
        {...noteBounds}
        onResizeEnd={(_event, params) => data.onResized(id, { x: params.x, y: params.y, width: Math.round(params.width), height: Math.round(params.height) })}
      />
      <p className={cn('break-words whitespace-pre-wrap', !data.text && 'italic opacity-60')}>{data.text || data.placeholder}</p>
    </div>
  );
}

export const NoteNode = memo(NoteNodeView);
