'use client';

/**
 * A readable picture of a graph diff: nodes added (green), removed (red) and changed (amber, with
 * each field and parameter before → after), connections, sticky notes and pins. Nodes and notes that
 * only moved are folded into one line unless `showMoves`. Colour is never the only signal: each
 * entry also carries a +, − or ~ mark and a label for screen readers.
 */
import type { ReactNode } from 'react';
import { useI18n } from '@/app/i18n/client';
import { cn } from '@/app/ui/cn';
import { CheckCircleIcon } from '@/app/ui/icons';
import { diffCounts, previewValue, type ConnectionRef, type GraphDiff, type NodeChange, type NodeSummary } from '../../_lib/graph-diff';

type Tone = 'added' | 'removed' | 'changed';

const tones: Record<Tone, { row: string; mark: string; sign: string }> = {
  added: {
    row: 'border-emerald-600/25 bg-emerald-50 dark:border-emerald-400/25 dark:bg-emerald-950/30',
    mark: 'text-emerald-700 dark:text-emerald-300',
    sign: '+',
  },
  removed: {
    row: 'border-red-600/25 bg-red-50 dark:border-red-400/25 dark:bg-red-950/30',
    mark: 'text-red-700 dark:text-red-300',
    sign: '−',
  },
  changed: {
    row: 'border-amber-600/25 bg-amber-50 dark:border-amber-400/25 dark:bg-amber-950/30',
    mark: 'text-amber-800 dark:text-amber-300',
    sign: '~',
  },
};

function Entry({ tone, testId, children }: { tone: Tone; testId?: string; children: ReactNode }) {
  const { t } = useI18n();
  const style = tones[tone];
  return (
    <li data-testid={testId} data-tone={tone} className={cn('flex gap-2 rounded-md border px-3 py-2 text-sm', style.row)}>
      <span aria-hidden className={cn('w-3 shrink-0 text-center font-mono font-semibold', style.mark)}>
        {style.sign}
      </span>
      <span className="sr-only">{t.versions.diff[tone]}: </span>
      <div className="min-w-0 flex-1">{children}</div>
    </li>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-1.5">
      <h4 className="text-xs font-semibold tracking-wide text-muted uppercase">{title}</h4>
      <ul className="space-y-1.5">{children}</ul>
    </section>
  );
}

function NodeLabel({ node }: { node: NodeSummary }) {
  return (
    <span className="inline-flex flex-wrap items-baseline gap-x-2">
      <span className="font-medium">{node.name}</span>
      <span className="font-mono text-[11px] text-muted">
        {node.type}@{node.version}
      </span>
    </span>
  );
}

const plainText = (value: string) => (value.length > 160 ? `${value.slice(0, 159)}…` : value);

/**
 * Before → after, each side as a short preview; an absent side reads "(none)". `plain`: strings
 * without quotes (a node's name, its onError), where the kind of value is never in doubt.
 */
function BeforeAfter({ before, after, plain = false }: { before: unknown; after: unknown; plain?: boolean }) {
  const { t } = useI18n();
  const side = (value: unknown, tone: 'removed' | 'added') =>
    value === undefined ? (
      <span className="text-muted italic">{t.versions.diff.absent}</span>
    ) : (
      <code className={cn('rounded px-1 py-0.5 font-mono text-[12px] break-all', tone === 'removed' ? 'bg-red-100/70 line-through decoration-red-500/50 dark:bg-red-900/30' : 'bg-emerald-100/70 dark:bg-emerald-900/30')}>
        {plain && typeof value === 'string' ? plainText(value) : previewValue(value)}
      </code>
    );
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      {side(before, 'removed')}
      <span aria-hidden className="text-muted">
        →
      </span>
      <span className="sr-only">{t.versions.diff.becomes}</span>
      {side(after, 'added')}
    </span>
  );
}

function ChangedNode({ change }: { change: NodeChange }) {
  const { t } = useI18n();
  return (
    <Entry tone="changed" testId="diff-node-changed">
      <div className="flex flex-wrap items-baseline gap-x-2">
        <NodeLabel node={change.after} />
        {change.moved ? <span className="text-xs text-muted">({t.versions.diff.moved})</span> : null}
      </div>
      {change.fields.length || change.params.length ? (
        <dl className="mt-1.5 grid grid-cols-[minmax(0,max-content)_1fr] gap-x-3 gap-y-1 text-[13px]">
          {change.fields.map((field) => (
            <div key={field.field} className="contents" data-testid="diff-field">
              <dt className="text-muted">{t.versions.diff.fields[field.field] ?? field.field}</dt>
              <dd className="min-w-0">
                <BeforeAfter before={field.before} after={field.after} plain />
              </dd>
            </div>
          ))}
          {change.params.map((param) => (
            <div key={param.path} className="contents" data-testid="diff-param">
              <dt className="font-mono text-[12px] text-muted">{param.path || t.versions.diff.parameter}</dt>
              <dd className="min-w-0">
                <BeforeAfter before={param.before} after={param.after} />
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
    </Entry>
  );
}

function ConnectionLabel({ connection }: { connection: ConnectionRef }) {
  const { t } = useI18n();
  return (
    <span className="inline-flex flex-wrap items-baseline gap-x-1.5">
      <span className="font-medium">{connection.fromName}</span>
      {connection.output !== 'main' ? <span className="font-mono text-[11px] text-muted">[{connection.output}]</span> : null}
      <span aria-hidden className="text-muted">
        →
      </span>
      <span className="sr-only">{t.versions.diff.to}</span>
      <span className="font-medium">{connection.toName}</span>
      {connection.input ? <span className="font-mono text-[11px] text-muted">[{connection.input}]</span> : null}
      {connection.kind !== 'data' ? <span className="text-xs text-muted">({connection.kind})</span> : null}
    </span>
  );
}

const onlyMoved = (change: { moved: boolean; fields: unknown[]; params?: unknown[] }) => change.moved && change.fields.length === 0 && (change.params?.length ?? 0) === 0;

export function GraphDiffView({ diff, showMoves = false, className }: { diff: GraphDiff; showMoves?: boolean; className?: string }) {
  const { t } = useI18n();
  const counts = diffCounts(diff);
  const changedNodes = showMoves ? diff.nodes.changed : diff.nodes.changed.filter((change) => !onlyMoved(change));
  const changedNotes = showMoves ? diff.notes.changed : diff.notes.changed.filter((change) => !onlyMoved(change));
  const hiddenMoves = showMoves ? 0 : counts.moves;

  if (counts.total === 0 || (counts.significant === 0 && !showMoves)) {
    return (
      <div data-testid="graph-diff" data-empty="true" className={cn('flex items-start gap-3 rounded-lg border border-dashed border-line-strong px-4 py-5', className)}>
        <CheckCircleIcon size={18} className="mt-0.5 shrink-0 text-muted" />
        <div>
          <p className="text-sm font-semibold">{t.versions.diff.empty}</p>
          <p className="text-sm text-muted">{counts.moves ? t.versions.diff.onlyMoves(counts.moves) : t.versions.diff.emptyHint}</p>
        </div>
      </div>
    );
  }

  const nodeCount = diff.nodes.added.length + diff.nodes.removed.length + changedNodes.length;
  const connectionCount = diff.connections.added.length + diff.connections.removed.length;
  const noteCount = diff.notes.added.length + diff.notes.removed.length + changedNotes.length;
  const pinCount = diff.pins.added.length + diff.pins.removed.length + diff.pins.changed.length;

  return (
    <div data-testid="graph-diff" data-empty="false" aria-label={t.versions.diff.label} role="region" className={cn('space-y-4', className)}>
      <p className="text-xs text-muted" data-testid="graph-diff-summary">
        {t.versions.diff.summary(diff.nodes.added.length, diff.nodes.removed.length, changedNodes.length)}
      </p>
      {nodeCount ? (
        <Section title={t.versions.diff.nodes}>
          {diff.nodes.added.map((node) => (
            <Entry key={`a-${node.id}`} tone="added" testId="diff-node-added">
              <NodeLabel node={node} />
            </Entry>
          ))}
          {diff.nodes.removed.map((node) => (
            <Entry key={`r-${node.id}`} tone="removed" testId="diff-node-removed">
              <NodeLabel node={node} />
            </Entry>
          ))}
          {changedNodes.map((change) => (
            <ChangedNode key={`c-${change.id}`} change={change} />
          ))}
        </Section>
      ) : null}
      {connectionCount ? (
        <Section title={t.versions.diff.connections}>
          {diff.connections.added.map((connection, index) => (
            <Entry key={`a-${index}`} tone="added" testId="diff-connection-added">
              <ConnectionLabel connection={connection} />
            </Entry>
          ))}
          {diff.connections.removed.map((connection, index) => (
            <Entry key={`r-${index}`} tone="removed" testId="diff-connection-removed">
              <ConnectionLabel connection={connection} />
            </Entry>
          ))}
        </Section>
      ) : null}
      {noteCount ? (
        <Section title={t.versions.diff.notes}>
          {diff.notes.added.map((note) => (
            <Entry key={`a-${note.id}`} tone="added" testId="diff-note-added">
              <span className="line-clamp-2 whitespace-pre-wrap">{note.text || t.versions.diff.emptyNote}</span>
            </Entry>
          ))}
          {diff.notes.removed.map((note) => (
            <Entry key={`r-${note.id}`} tone="removed" testId="diff-note-removed">
              <span className="line-clamp-2 whitespace-pre-wrap">{note.text || t.versions.diff.emptyNote}</span>
            </Entry>
          ))}
          {changedNotes.map((change) => (
            <Entry key={`c-${change.id}`} tone="changed" testId="diff-note-changed">
              <span className="line-clamp-2 whitespace-pre-wrap">{change.after.text || t.versions.diff.emptyNote}</span>
              <span className="mt-1 block text-xs text-muted">
                {[...change.fields.map((field) => t.versions.diff.fields[field] ?? field), ...(change.moved ? [t.versions.diff.moved] : [])].join(', ')}
              </span>
              {change.fields.includes('text') ? (
                <span className="mt-1 block">
                  <BeforeAfter before={change.before.text} after={change.after.text} plain />
                </span>
              ) : null}
            </Entry>
          ))}
        </Section>
      ) : null}
      {pinCount ? (
        <Section title={t.versions.diff.pins}>
          {diff.pins.added.map((key) => (
            <Entry key={`a-${key}`} tone="added">
              {t.versions.diff.pinAdded(key)}
            </Entry>
          ))}
          {diff.pins.removed.map((key) => (
            <Entry key={`r-${key}`} tone="removed">
              {t.versions.diff.pinRemoved(key)}
            </Entry>
          ))}
          {diff.pins.changed.map((key) => (
            <Entry key={`c-${key}`} tone="changed">
              {t.versions.diff.pinChanged(key)}
            </Entry>
          ))}
        </Section>
      ) : null}
      {hiddenMoves ? <p className="text-xs text-muted">{t.versions.diff.movedCount(hiddenMoves)}</p> : null}
    </div>
  );
}
