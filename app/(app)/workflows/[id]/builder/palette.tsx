'use client';

/**
 * The node palette: every node type of the instance (GET /api/v1/node-types, in the member's
 * language), searchable, grouped by category. Drag a type onto the canvas, or press it to add it at
 * the centre of the view. Forbidden types and a second trigger are shown but cannot be added.
 */
import { useMemo, useState, type DragEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { cn } from '@/app/ui/cn';
import type { NodeType } from './api';
import { paletteDragType } from './canvas/builder-canvas';

const categoryOrder = ['trigger', 'mail', 'logic', 'data', 'flow', 'tables', 'contacts', 'approval', 'notify', 'signal', 'http', 'ai'];

export function matchesSearch(type: NodeType, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const haystack = `${type.label} ${type.type} ${type.description} ${type.category}`.toLowerCase();
  return words.every((word) => haystack.includes(word));
}

export function groupByCategory(types: NodeType[]): [string, NodeType[]][] {
  const groups = new Map<string, NodeType[]>();
  for (const type of types) groups.set(type.category, [...(groups.get(type.category) ?? []), type]);
  const rank = (category: string) => (categoryOrder.includes(category) ? categoryOrder.indexOf(category) : categoryOrder.length);
  return [...groups.entries()].sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
}

export function Palette({ types, hasTrigger, readOnly, onAdd }: { types: NodeType[]; hasTrigger: boolean; readOnly: boolean; onAdd: (type: NodeType) => void }) {
  const { t } = useI18n();
  const b = t.builder;
  const [query, setQuery] = useState('');
  const groups = useMemo(() => groupByCategory(types.filter((type) => matchesSearch(type, query))), [types, query]);

  function unavailable(type: NodeType): string | null {
    if (readOnly) return b.palette.readOnly;
    if (type.forbidden) return b.palette.forbidden;
    if (type.trigger && hasTrigger) return b.palette.oneTrigger;
    return null;
  }

  return (
    <aside aria-label={b.palette.label} className="flex h-full min-h-0 flex-col border-r border-line bg-surface" data-testid="builder-palette">
      <div className="border-b border-line p-2">
        <input
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          placeholder={b.palette.search}
          aria-label={b.palette.search}
          className="w-full rounded-md border border-line-strong bg-surface px-2 py-1.5 text-sm outline-none focus:border-brand"
          data-testid="palette-search"
        />
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto p-2">
        {groups.length === 0 ? <p className="p-2 text-sm text-muted">{b.palette.none}</p> : null}
        {groups.map(([category, items]) => (
          <section key={category} className="mb-3">
            <h3 className="px-1 pb-1 text-[11px] font-semibold tracking-wide text-muted uppercase">{b.categories[category] ?? category}</h3>
            <ul className="space-y-1">
              {items.map((type) => {
                const reason = unavailable(type);
                return (
                  <li key={type.type}>
                    <button
                      type="button"
                      draggable={!reason}
                      disabled={Boolean(reason)}
                      title={reason ?? type.description}
                      data-testid="palette-item"
                      data-node-type={type.type}
                      onDragStart={(event: DragEvent) => {
                        event.dataTransfer.setData(paletteDragType, type.type);
                        event.dataTransfer.effectAllowed = 'copy';
                      }}
                      onClick={() => onAdd(type)}
                      className={cn(
                        'w-full rounded-md border border-line px-2 py-1.5 text-left text-sm hover:border-brand hover:bg-subtle',
                        reason ? 'cursor-not-allowed opacity-50' : 'cursor-grab',
                      )}
                    >
                      <span className="block font-medium">{type.label}</span>
                      <span className="block truncate text-[11px] text-muted">{type.description}</span>
                    </button>
                  </li>
                );
              })}
            </ul>
          </section>
        ))}
      </div>
    </aside>
  );
}
