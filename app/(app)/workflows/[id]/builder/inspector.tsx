'use client';

/**
 * The panel beside the canvas: what is selected. One node: its name, parameters (generated form),
 * settings, the server's issues at their fields, and the last test run's result for it, with pin and
 * "run up to here". A sticky note: its text and colour. Several items: what can be done to all.
 */
import { useI18n } from '@/app/i18n/client';
import { runErrorText } from '@/app/lib/run-error-text';
import { Alert } from '@/app/ui/alert';
import { Badge, StatusBadge } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { TextareaField } from '@/app/ui/field';
import { cn } from '@/app/ui/cn';
import { executionStatusTone } from '../../../executions/_lib/status';
import { JsonBlock } from '../../../executions/[id]/json-block';
import type { NodeType, TestRunDetail, TestRunStep } from './api';
import { noteColourClasses } from './canvas/note-node';
import { stickyColors, updateNode, updateNote, type EditorGraph } from './model/editor-graph';
import { mergeKeyOf } from './model/history';
import type { IssuesByItem } from './model/issues';
import { FieldList } from '../../_components/expression';
import { NodeParamsForm, NodeSettingsForm, type ParamsFormContext } from '../../_components/params';
import { sampleScopeFor } from './use-form-context';
import type { Builder } from './use-builder';

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="space-y-2 border-t border-line pt-3 first:border-0 first:pt-0">
      <h3 className="text-[11px] font-semibold tracking-wide text-muted uppercase">{title}</h3>
      {children}
    </section>
  );
}

function NodeResult({ step, pinned, onPin, onUnpin }: { step: TestRunStep | undefined; pinned: boolean; onPin: () => void; onUnpin: () => void }) {
  const { t } = useI18n();
  const b = t.builder.inspector;
  return (
    <Section title={b.result}>
      {step ? (
        <div className="space-y-2" data-testid="node-result">
          <div className="flex flex-wrap items-center gap-2">
            <StatusBadge tone={executionStatusTone(step.status)}>{t.executions.status[step.status] ?? step.status}</StatusBadge>
            {step.output ? <Badge>{b.port(t.builder.ports[step.output] ?? step.output)}</Badge> : null}
            {step.pinned ? <Badge tone="brand">{t.builder.pinned}</Badge> : null}
          </div>
          {step.error ? (
            <Alert tone="danger" testId="node-result-error">
              {step.error.code}: {runErrorText(step.error, t)}
            </Alert>
          ) : null}
          {step.effects.length > 0 ? (
            <ul className="space-y-1 text-xs" data-testid="node-result-effects">
              {step.effects.map((effect, index) => (
                <li key={index}>
                  <Badge tone={effect.simulated ? 'warning' : 'neutral'}>{effect.simulated ? b.simulated : effect.kind}</Badge> {effect.description}
                </li>
              ))}
            </ul>
          ) : null}
          {step.data !== null ? <JsonBlock value={step.data} testId="node-result-data" className="max-h-64" /> : null}
        </div>
      ) : (
        <p className="text-sm text-muted">{b.noResult}</p>
      )}
      <div className="flex flex-wrap gap-2">
        {pinned ? (
          <Button size="sm" onClick={onUnpin} data-testid="node-unpin">
            {b.unpin}
          </Button>
        ) : step && step.status === 'succeeded' ? (
          <Button size="sm" onClick={onPin} data-testid="node-pin">
            {b.pin}
          </Button>
        ) : null}
      </div>
    </Section>
  );
}

const nameSegment = (id: string) => (/^[A-Za-z_][\w]*$/.test(id) ? id : `\`${id.replace(/`/g, '')}\``);

/**
 * The fields this node receives (the previous node's data or declared shape) and produces, each a
 * button that inserts its expression into the expression field the member was in (issue 19 §6).
 */
function NodeFields({ graph, nodeId, typesByName, stepsByNode }: { graph: EditorGraph; nodeId: string; typesByName: Map<string, NodeType>; stepsByNode: Map<string, TestRunStep> }) {
  const { t } = useI18n();
  const p = t.params.expression;
  const typeOf = (id: string) => typesByName.get(graph.nodes.find((item) => item.id === id)?.type ?? '');
  const dataOf = (id: string) => (Object.hasOwn(graph.pins, id) ? graph.pins[id].output : (stepsByNode.get(id)?.data ?? undefined));
  const upstream = graph.connections.find((connection) => connection.to === nodeId && (connection.input ?? 'main') === 'main');
  const own = typeOf(nodeId);
  return (
    <div className="space-y-3" data-testid="node-fields">
      {upstream ? <FieldList title={p.inputFields} root="input" value={dataOf(upstream.from)} schema={typeOf(upstream.from)?.outputSchema} testId="input-fields" /> : null}
      <FieldList
        title={p.outputFields}
        root={own?.trigger ? 'trigger' : `nodes.${nameSegment(nodeId)}`}
        value={dataOf(nodeId)}
        schema={own?.outputSchema}
        testId="output-fields"
      />
    </div>
  );
}

export function Inspector({
  builder,
  graph,
  typesByName,
  issues,
  stepsByNode,
  run,
  lists,
  readOnly,
  onRunUpTo,
  onPin,
  onUnpin,
}: {
  builder: Builder;
  graph: EditorGraph;
  typesByName: Map<string, NodeType>;
  issues: IssuesByItem;
  stepsByNode: Map<string, TestRunStep>;
  run: TestRunDetail | null;
  lists: Omit<ParamsFormContext, 'sampleScope'>;
  readOnly: boolean;
  onRunUpTo: (nodeId: string) => void;
  onPin: (nodeId: string) => void;
  onUnpin: (nodeId: string) => void;
}) {
  const { t } = useI18n();
  const b = t.builder.inspector;
  const ids = builder.selection.items;

  if (ids.length === 0) {
    return (
      <div className="space-y-3 p-3 text-sm text-muted" data-testid="inspector-empty">
        <p>{b.empty}</p>
        {issues.graph.length > 0 ? (
          <Alert tone="danger" testId="graph-issues">
            <ul>
              {issues.graph.map((issue, index) => (
                <li key={index}>{issue.path ? `${issue.path}: ${issue.message}` : issue.message}</li>
              ))}
            </ul>
          </Alert>
        ) : null}
      </div>
    );
  }

  if (ids.length > 1) {
    return (
      <div className="space-y-3 p-3" data-testid="inspector-many">
        <p className="text-sm">{b.many(ids.length)}</p>
        {!readOnly ? (
          <div className="flex flex-wrap gap-2">
            <Button size="sm" onClick={builder.duplicateSelected}>
              {t.builder.actions.duplicate}
            </Button>
            <Button size="sm" onClick={builder.toggleDisabledSelected}>
              {t.builder.actions.disable}
            </Button>
            <Button size="sm" variant="danger" onClick={builder.removeSelected}>
              {t.builder.actions.delete}
            </Button>
          </div>
        ) : null}
      </div>
    );
  }

  const note = graph.notes.find((item) => item.id === ids[0]);
  if (note) {
    return (
      <div className="space-y-3 p-3" data-testid="inspector-note">
        <TextareaField
          label={b.noteText}
          rows={8}
          maxLength={4000}
          readOnly={readOnly}
          value={note.text}
          onChange={(event) => builder.commit(updateNote(graph, note.id, { text: event.target.value }), `note:${note.id}:text`)}
        />
        <fieldset>
          <legend className="mb-1 text-sm font-medium">{b.noteColour}</legend>
          <div className="flex gap-2">
            {stickyColors.map((color) => (
              <button
                key={color}
                type="button"
                disabled={readOnly}
                aria-pressed={note.color === color}
                aria-label={t.builder.colours[color]}
                title={t.builder.colours[color]}
                data-testid={`note-colour-${color}`}
                onClick={() => builder.commit(updateNote(graph, note.id, { color }))}
                className={cn('h-7 w-7 rounded-full border-2', noteColourClasses[color], note.color === color && 'ring-2 ring-brand ring-offset-2 ring-offset-surface')}
              />
            ))}
          </div>
        </fieldset>
      </div>
    );
  }

  const node = graph.nodes.find((item) => item.id === ids[0]);
  if (!node) return null;
  const type = typesByName.get(node.type);
  const nodeIssues = issues.nodes.get(node.id) ?? [];
  const paramIssues = nodeIssues.filter((issue) => issue.path.startsWith('params'));
  const otherIssues = nodeIssues.filter((issue) => !issue.path.startsWith('params'));
  return (
    <div className="space-y-4 p-3" data-testid="inspector-node" data-node-id={node.id}>
      <div>
        <p className="text-[11px] text-muted">
          {type?.label ?? node.type} · <span className="font-mono">{node.id}</span>
        </p>
        {type ? <p className="mt-1 text-xs text-muted">{type.description}</p> : null}
      </div>
      {nodeIssues.some((issue) => issue.path === '') ? (
        <Alert tone="danger" testId="node-issues">
          <ul>
            {nodeIssues.filter((issue) => issue.path === '').map((issue, index) => (
              <li key={index}>{issue.path ? `${issue.path}: ${issue.message}` : issue.message}</li>
            ))}
          </ul>
        </Alert>
      ) : null}
      <Section title={b.params}>
        {type ? (
          <NodeParamsForm
            key={node.id}
            nodeType={type}
            params={node.params}
            onChange={(params) => builder.commit(updateNode(graph, node.id, { params }), mergeKeyOf(`params:${node.id}`, node.params, params))}
            context={{ ...lists, sampleScope: sampleScopeFor(graph, node.id, run, (name) => typesByName.get(name)?.outputSchema) }}
            issues={paramIssues}
            disabled={readOnly}
          />
        ) : (
          <p className="text-sm text-muted">{b.unknownType(node.type)}</p>
        )}
      </Section>
      <Section title={b.settings}>
        <NodeSettingsForm
          key={node.id}
          settings={{ name: node.name, disabled: node.disabled, onError: node.onError, retry: node.retry, timeoutMs: node.timeoutMs, notes: node.notes }}
          defaults={type?.retry ?? { maxAttempts: 3, delayMs: 30_000, timeoutMs: 300_000 }}
          onChange={(settings) =>
            builder.commit(
              updateNode(graph, node.id, {
                name: settings.name,
                disabled: settings.disabled,
                onError: settings.onError,
                retry: settings.retry,
                timeoutMs: settings.timeoutMs,
                notes: settings.notes,
              }),
              mergeKeyOf(`settings:${node.id}`, { name: node.name, disabled: node.disabled, onError: node.onError, retry: node.retry, timeoutMs: node.timeoutMs, notes: node.notes }, { ...settings }),
            )
          }
          issues={otherIssues}
          disabled={readOnly}
        />
      </Section>
      <NodeFields graph={graph} nodeId={node.id} typesByName={typesByName} stepsByNode={stepsByNode} />
      <NodeResult step={stepsByNode.get(node.id)} pinned={Object.hasOwn(graph.pins, node.id)} onPin={() => onPin(node.id)} onUnpin={() => onUnpin(node.id)} />
      {!readOnly ? (
        <div className="flex flex-wrap gap-2 border-t border-line pt-3">
          <Button size="sm" onClick={() => onRunUpTo(node.id)} data-testid="node-run-up-to">
            {b.runUpTo}
          </Button>
          <Button size="sm" onClick={builder.duplicateSelected}>
            {t.builder.actions.duplicate}
          </Button>
          <Button size="sm" onClick={builder.toggleDisabledSelected}>
            {node.disabled ? t.builder.actions.enable : t.builder.actions.disable}
          </Button>
          <Button size="sm" variant="danger" onClick={builder.removeSelected} data-testid="node-delete">
            {t.builder.actions.delete}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
