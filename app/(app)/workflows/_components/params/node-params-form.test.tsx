// @vitest-environment jsdom
/**
 * Every registered node type renders its generated form and round-trips its parameters: unchanged
 * on mount, and every field edited then restored gives the same params back, an edit changing
 * exactly that field's path. Params come from the starter templates and from fixtures below (each
 * checked valid by the engine's own parameter check first).
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { checkNodeParams } from '@/server/engine/nodes/check-params';
import { latestNodeTypes } from '@/server/engine/nodes/registry';
import { starterTemplates } from '@/server/domains/templates/starter';
import { editorText, renderWithI18n, setEditorText } from '../expression/_testing/dom';
import { NodeParamsForm, type ParamsNodeType } from './node-params-form';
import type { ParamsFormContext } from './form-context';
import { parsePath, type FieldIssue, type Segment } from './_lib/paths';
import { getAt, setAt } from './_lib/values';
import { isPlainObject } from './_lib/schema';

vi.mock('next/navigation', () => ({ useRouter: () => ({ refresh() {} }) }));

afterEach(cleanup);

const uuid = '1b4e28ba-2fa1-41d2-883f-0016d3cca427';

/** Params for the types the starter templates do not use, and other shapes of those they do. */
const fixtures: Record<string, Record<string, unknown>[]> = {
  'trigger.mail': [{ mailboxIds: [uuid], folders: ['inbox', 'archive'], hasAttachments: true, includeNoReply: true, requireSignals: ['vip'], senderCard: false }],
  'contacts.lookup': [{ address: '{{ trigger.to[0].email }}', mailboxId: 'none' }],
  'logic.if': [{ conditions: [{ left: 5, operator: 'gt', right: 3 }, { left: '{{ trigger.subject }}', operator: 'is_empty' }], combine: 'any' }],
  'logic.switch': [
    {
      cases: [
        { name: 'urgent', conditions: [{ left: '{{ trigger.subject }}', operator: 'contains', right: 'urgent' }] },
        { name: 'partners', combine: 'any', conditions: [{ left: '{{ trigger.from.email }}', operator: 'ends_with', right: '@example.com' }, { left: true, operator: 'equals', right: { a: [1, 2] } }] },
      ],
    },
  ],
  'logic.filter': [
    { items: '{{ trigger.to }}', conditions: [{ left: '{{ item.email }}', operator: 'contains', right: 'example' }] },
    { items: [1, 'two', { three: 3 }], conditions: [{ left: '{{ item }}', operator: 'is_not_empty' }], combine: 'all' },
  ],
  'logic.merge': [{ mode: 'append' }, {}],
  'data.set': [{ fields: [{ name: 'customer.name', value: '{{ trigger.from.name }}' }, { name: 'count', value: 3 }, { name: 'flags', value: [true, null] }], keepInput: false }],
  'data.datetime': [{ operation: 'add', date: '{{ now }}', amount: 3, unit: 'hours', timeZone: 'Europe/Paris' }],
  'flow.wait': [
    { mode: 'duration', amount: 2, unit: 'days' },
    { mode: 'until', until: '{{ $now() }}' },
  ],
  'flow.wait_for_reply': [{ messageId: '{{ nodes.find.id }}', amount: 4, unit: 'hours' }],
  'flow.loop': [{ items: '{{ input.items }}', workflowId: uuid, concurrency: 3, failOnItemError: false }],
  'flow.sub_workflow': [{ workflowId: uuid, data: { customer: '{{ trigger.from.email }}', n: 2 } }, { workflowId: uuid }],
  'http.request': [
    {
      method: 'POST',
      url: 'https://example.com/hook',
      query: [{ name: 'q', value: '{{ trigger.subject }}' }],
      headers: [{ name: 'X-Trace', value: 'abc' }],
      body: { type: 'json', json: { subject: '{{ trigger.subject }}', n: 2 } },
      credentialId: uuid,
      maxResponseBytes: 2000,
    },
    { url: 'https://example.com/text', body: { type: 'text', text: 'Hello {{ trigger.from.name }}', contentType: 'text/markdown' } },
  ],
  'mail.send': [
    {
      mailboxId: uuid,
      replyTo: { mode: 'replyAll', messageId: '{{ trigger.id }}' },
      to: ['ann@example.com', '{{ trigger.from.email }}'],
      cc: null,
      subject: 'Hello',
      bodyText: 'Hello,\n{{ trigger.from.name }}',
      attachments: [{ source: 'trigger' }, { source: 'message', messageId: '{{ nodes.find.id }}', position: 2 }],
    },
  ],
  'mail.draft': [{ to: 'ann@example.com, bob@example.com', bcc: [], bodyHtml: '<p>Hi</p>' }],
  'mail.read_thread': [{ messageId: '{{ trigger.id }}', limit: 10 }],
  'mail.label': [{ add: ['done'], remove: ['todo', 'later'] }],
  'ai.classify': [{ labels: [{ name: 'invoice', description: 'A bill to pay' }, { name: 'other' }], instructions: 'Be strict', writeClassification: false }],
  'ai.extract': [{ fields: [{ name: 'amount', type: 'number', description: 'The total', required: true }, { name: 'due', type: 'date' }], text: '{{ trigger.snippet }}' }],
  'ai.compose': [{ instructions: 'Thank them and confirm the date', threadMessages: 3, language: 'French' }],
  'ai.general': [{ prompt: 'Summarise {{ trigger.subject }}', system: 'Be brief', schema: [{ name: 'summary', required: true }] }],
  'tables.insert': [{ tableId: 'customers', cells: { email: '{{ trigger.from.email }}', visits: 1, vip: true, note: null } }],
  'tables.update': [{ tableId: 'customers', rowId: '{{ nodes.lookup.row.id }}', cells: { status: 'done' } }],
  'approval.request': [{ title: 'Approve {{ trigger.subject }}', expiresIn: { amount: 2, unit: 'hours' }, approverEmails: ['boss@example.com'], details: 'Why' }],
  'notify.owner': [{ title: 'Failed', body: 'Line one\nline two', severity: 'error' }],
  'signal.mark': [{ name: 'vip', target: 'thread', messageId: '{{ trigger.id }}' }],
};

function starterParams(type: string): Record<string, unknown>[] {
  return starterTemplates.flatMap((template) => (template.graph.nodes ?? []).filter((node) => node.type === type).map((node) => (node.params ?? {}) as Record<string, unknown>));
}

const definitions = latestNodeTypes();

/** What GET /api/v1/node-types serves (server/domains/node-types/service.ts). */
function nodeTypeOf(definition: (typeof definitions)[number]): ParamsNodeType {
  return {
    type: definition.type,
    mailboxParams: [...(definition.mailboxParams ?? [])],
    paramsSchema: z.toJSONSchema(definition.params, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
  };
}

const cases = definitions.flatMap((definition) => {
  const params = [...starterParams(definition.type), ...(fixtures[definition.type] ?? [])];
  return (params.length > 0 ? params : [{}]).map((value, index) => ({ definition, params: value, label: `${definition.type} #${index + 1}` }));
});

function Harness({
  nodeType,
  initial,
  emitted,
  context,
  issues,
}: {
  nodeType: ParamsNodeType;
  initial: Record<string, unknown>;
  emitted: Record<string, unknown>[];
  context?: ParamsFormContext;
  issues?: FieldIssue[];
}) {
  const [params, setParams] = useState(initial);
  return (
    <NodeParamsForm
      nodeType={nodeType}
      params={params}
      context={context}
      issues={issues}
      onChange={(next) => {
        emitted.push(next);
        setParams(next);
      }}
    />
  );
}

function last<T>(items: T[]): T {
  return items[items.length - 1];
}

/** The params path of a control: its field frame's `data-field-path`. */
function pathOf(element: Element): Segment[] {
  const frame = element.closest('[data-field-path]');
  const segments = parsePath(frame?.getAttribute('data-field-path') ?? '');
  if (!segments) throw new Error('A control outside a field frame.');
  return segments;
}

/** `emitted` is `original` with only the value at `segments` changed (set to `expected` when given). */
function expectOnlyChanged(original: Record<string, unknown>, emitted: Record<string, unknown>, segments: Segment[], expected?: unknown) {
  expect(getAt(emitted, segments)).not.toEqual(getAt(original, segments));
  if (expected !== undefined) expect(getAt(emitted, segments)).toEqual(expected);
  expect(setAt(emitted, segments, getAt(original, segments))).toEqual(original);
}

describe('NodeParamsForm over every registered node type', () => {
  it('has params for every type beyond the ones without parameters', () => {
    const bare = definitions.filter((definition) => !cases.some((entry) => entry.definition === definition && Object.keys(entry.params).length > 0));
    expect(bare.map((definition) => definition.type).sort()).toEqual(['trigger.webhook', 'trigger.workflow_failure']);
  });

  it.each(cases)('$label: the params are valid for the type', ({ definition, params }) => {
    expect(checkNodeParams(definition, params)).toEqual([]);
  });

  it.each(cases)('$label: renders, emits nothing on mount, and round-trips every field', ({ definition, params }) => {
    const original = structuredClone(params);
    const emitted: Record<string, unknown>[] = [];
    const nodeType = nodeTypeOf(definition);
    renderWithI18n(<Harness nodeType={nodeType} initial={params} emitted={emitted} />);
    const form = screen.getByTestId('node-params-form');
    expect(emitted).toEqual([]);
    expect(within(form).queryAllByTestId('field-error')).toEqual([]);
    if (Object.keys((nodeType.paramsSchema.properties as object | undefined) ?? {}).length === 0 && !nodeType.paramsSchema.oneOf) {
      expect(form.textContent).toContain('no parameters');
      return;
    }

    let checked = 0;
    // Fields whose value is set, or absent from an object that is there (an optional param).
    const editable = (segments: Segment[], value: unknown) => value !== undefined || isPlainObject(getAt(original, segments.slice(0, -1)));
    // Text and expression fields: append, then restore.
    for (const editor of within(form).queryAllByTestId('expression-editor')) {
      const segments = parsePath((editor.getAttribute('data-path') ?? '').replace(/^params\.?/, '')) ?? [];
      const before = getAt(original, segments);
      if (before !== undefined && typeof before !== 'string') continue;
      if (!editable(segments, before) || (before === undefined && editorText(editor) !== '')) continue;
      expect(editorText(editor)).toBe(before ?? '');
      setEditorText(editor, `${before ?? ''} x`);
      expectOnlyChanged(original, last(emitted), segments, `${before ?? ''} x`);
      setEditorText(editor, before ?? '');
      expect(last(emitted)).toEqual(original);
      checked += 1;
    }
    // Selects (enums, tri-state booleans): another option, then back.
    for (const select of within(form).queryAllByRole('combobox') as HTMLSelectElement[]) {
      if (select.dataset.role || select.value === 'unknown') continue;
      const segments = pathOf(select);
      const before = select.value;
      const other = [...select.options].find((option) => option.value !== before && option.value !== '' && !option.disabled);
      if (!other || !editable(segments, getAt(original, segments))) continue;
      fireEvent.change(select, { target: { value: other.value } });
      expectOnlyChanged(original, last(emitted), segments);
      fireEvent.change(select, { target: { value: before } });
      expect(last(emitted)).toEqual(original);
      checked += 1;
    }
    // Checkboxes with an explicit value: toggle twice.
    for (const box of within(form).queryAllByRole('checkbox') as HTMLInputElement[]) {
      const segments = pathOf(box);
      if (typeof getAt(original, segments) !== 'boolean') continue;
      fireEvent.click(box);
      expectOnlyChanged(original, last(emitted), segments, !getAt(original, segments));
      fireEvent.click(box);
      expect(last(emitted)).toEqual(original);
      checked += 1;
    }
    // Numbers with a value: +1, then back.
    for (const input of within(form).queryAllByRole('spinbutton') as HTMLInputElement[]) {
      const segments = pathOf(input);
      const before = getAt(original, segments);
      if (typeof before !== 'number') continue;
      fireEvent.change(input, { target: { value: String(before + 1) } });
      expectOnlyChanged(original, last(emitted), segments, before + 1);
      fireEvent.change(input, { target: { value: String(before) } });
      expect(last(emitted)).toEqual(original);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(0);
    expect(params).toEqual(original);
  });
});

function renderType(type: string, params: Record<string, unknown>, extra: { context?: ParamsFormContext; issues?: FieldIssue[] } = {}) {
  const definition = definitions.find((entry) => entry.type === type)!;
  const emitted: Record<string, unknown>[] = [];
  renderWithI18n(<Harness nodeType={nodeTypeOf(definition)} initial={params} emitted={emitted} {...extra} />);
  return { emitted, form: screen.getByTestId('node-params-form') };
}

function fieldOf(form: HTMLElement, path: string): HTMLElement {
  const field = form.querySelector<HTMLElement>(`[data-field-path="${path}"]`);
  if (!field) throw new Error(`No field at ${path}`);
  return field;
}

describe('NodeParamsForm fields', () => {
  it('shows defaults as placeholders, descriptions as hints and required marks', () => {
    const { form } = renderType('http.request', { url: 'https://example.com' });
    expect(within(fieldOf(form, 'url')).getByText('*')).toBeTruthy();
    expect(fieldOf(form, 'url').textContent).toContain('The URL (http or https).');
    expect((within(fieldOf(form, 'method')).getByRole('combobox') as HTMLSelectElement).selectedOptions[0].textContent).toBe('Default (GET)');
    expect((within(fieldOf(form, 'maxResponseBytes')).getByRole('spinbutton') as HTMLInputElement).placeholder).toBe('default: 1000000');
    expect((within(fieldOf(form, 'followRedirects')).getByRole('checkbox') as HTMLInputElement).checked).toBe(true);
  });

  it('adds, reorders and removes list items within their bounds', () => {
    const { form, emitted } = renderType('logic.if', { conditions: [{ left: 'a', operator: 'equals', right: 'b' }] });
    const conditions = fieldOf(form, 'conditions');
    expect((within(conditions).getByRole('button', { name: 'Remove item 1' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(conditions).getByRole('button', { name: 'Add' }));
    expect(last(emitted)).toEqual({ conditions: [{ left: 'a', operator: 'equals', right: 'b' }, { left: '', operator: 'equals' }] });
    fireEvent.click(within(conditions).getByRole('button', { name: 'Move item 2 up' }));
    expect(last(emitted)).toEqual({ conditions: [{ left: '', operator: 'equals' }, { left: 'a', operator: 'equals', right: 'b' }] });
    fireEvent.click(within(conditions).getByRole('button', { name: 'Remove item 1' }));
    expect(last(emitted)).toEqual({ conditions: [{ left: 'a', operator: 'equals', right: 'b' }] });
  });

  it('switches a union’s kind and a root union’s branch', () => {
    const { form, emitted } = renderType('mail.send', { to: 'ann@example.com' });
    fireEvent.change(within(fieldOf(form, 'to')).getByLabelText('To: Kind'), { target: { value: '0' } });
    expect(last(emitted)).toEqual({ to: [] });
    cleanup();
    const wait = renderType('flow.wait', { mode: 'duration', amount: 2, unit: 'days' });
    fireEvent.change(within(wait.form).getByLabelText('Kind'), { target: { value: '1' } });
    expect(last(wait.emitted)).toEqual({ mode: 'until', until: '' });
  });

  it('starts an absent object with a default from that default', () => {
    const { form, emitted } = renderType('approval.request', { title: 'Approve' });
    fireEvent.change(within(fieldOf(form, 'expiresIn.amount')).getByRole('spinbutton'), { target: { value: '5' } });
    expect(last(emitted)).toEqual({ title: 'Approve', expiresIn: { amount: 5, unit: 'days' } });
  });

  it('switches a list to an expression and back', () => {
    const { form, emitted } = renderType('logic.filter', { items: [1], conditions: [{ left: 'a', operator: 'is_empty' }] });
    const items = fieldOf(form, 'items');
    fireEvent.click(within(items).getAllByTestId('expression-switch')[0]);
    setEditorText(within(fieldOf(form, 'items')).getAllByTestId('expression-editor')[0], '{{ trigger.to }}');
    expect(last(emitted).items).toBe('{{ trigger.to }}');
    fireEvent.click(within(fieldOf(form, 'items')).getAllByTestId('expression-switch')[0]);
    expect(last(emitted).items).toEqual([]);
  });

  it('edits an unknown value as JSON', () => {
    const { form, emitted } = renderType('data.set', { fields: [{ name: 'n', value: 3 }] });
    const value = fieldOf(form, 'fields[0].value');
    expect(within(value).getByRole<HTMLSelectElement>('combobox', { name: 'Value: Kind' }).value).toBe('json');
    fireEvent.change(within(value).getByRole('textbox'), { target: { value: '{"a": [1, true]}' } });
    expect(last(emitted)).toEqual({ fields: [{ name: 'n', value: { a: [1, true] } }] });
    fireEvent.change(within(value).getByRole('textbox'), { target: { value: '{"a": ' } });
    expect(value.textContent).toContain('Not valid JSON');
    expect(emitted).toHaveLength(1);
  });

  it('edits record entries: values, keys, removal', () => {
    const { form, emitted } = renderType('tables.insert', { tableId: 't', cells: { email: 'a@b.c', visits: 1 } });
    const cells = fieldOf(form, 'cells');
    fireEvent.change(within(cells).getAllByRole('textbox', { name: 'Key' })[1], { target: { value: 'count' } });
    expect(last(emitted)).toEqual({ tableId: 't', cells: { email: 'a@b.c', count: 1 } });
    fireEvent.change(within(cells).getAllByRole('textbox', { name: 'Key' })[1], { target: { value: 'email' } });
    expect(cells.textContent).toContain('This key is already used.');
    fireEvent.click(within(cells).getByRole('button', { name: 'Remove email' }));
    expect(last(emitted)).toEqual({ tableId: 't', cells: { count: 1 } });
  });

  it('offers pickers for mailboxes, tables, connections and workflows', () => {
    const context: ParamsFormContext = {
      mailboxes: [{ id: uuid, label: 'ann@example.com' }, { id: '2b4e28ba-2fa1-41d2-883f-0016d3cca427', label: 'team@example.com' }],
      tables: [{ id: 't-1', name: 'Customers', slug: 'customers' }],
      connections: [{ id: 'c-1', name: 'CRM', type: 'http_generic' }, { id: 'c-2', name: 'Mail', type: 'imap' }],
      workflows: [{ id: uuid, name: 'Child' }],
    };
    const trigger = renderType('trigger.mail', { mailboxIds: [uuid] }, { context });
    const boxes = within(fieldOf(trigger.form, 'mailboxIds')).getAllByRole('checkbox') as HTMLInputElement[];
    expect(boxes.map((box) => box.checked)).toEqual([true, false]);
    fireEvent.click(boxes[1]);
    expect(last(trigger.emitted)).toEqual({ mailboxIds: [uuid, '2b4e28ba-2fa1-41d2-883f-0016d3cca427'] });
    cleanup();

    const lookup = renderType('tables.lookup', { tableId: 'customers', key: 'k' }, { context });
    const table = within(fieldOf(lookup.form, 'tableId')).getByRole('combobox') as HTMLSelectElement;
    expect(table.selectedOptions[0].textContent).toBe('Customers');
    cleanup();

    const http = renderType('http.request', { url: 'https://example.com' }, { context });
    const connection = within(fieldOf(http.form, 'credentialId')).getByRole('combobox') as HTMLSelectElement;
    expect([...connection.options].map((option) => option.textContent)).toEqual(['No connection', 'CRM']);
    fireEvent.change(connection, { target: { value: 'c-1' } });
    expect(last(http.emitted)).toEqual({ url: 'https://example.com', credentialId: 'c-1' });
    cleanup();

    const sub = renderType('flow.sub_workflow', { workflowId: uuid }, { context });
    expect((within(fieldOf(sub.form, 'workflowId')).getByRole('combobox') as HTMLSelectElement).selectedOptions[0].textContent).toBe('Child');
    cleanup();

    const draft = renderType('mail.draft', {}, { context });
    const mailbox = within(fieldOf(draft.form, 'mailboxId')).getByRole('combobox') as HTMLSelectElement;
    fireEvent.change(mailbox, { target: { value: uuid } });
    expect(last(draft.emitted)).toEqual({ mailboxId: uuid });
  });

  it('shows the server’s issues at their fields', () => {
    const issues = [
      { path: 'nodes[1].params.conditions[0].left', message: 'Left is wrong.' },
      { path: 'params.combine', message: 'Combine is wrong.' },
      { path: 'conditions', message: 'Too few.' },
      { path: 'nodes[1].params.nope', message: 'Unrecognized key: "nope"' },
    ];
    const { form } = renderType('logic.if', { conditions: [{ left: 'a', operator: 'equals' }] }, { issues });
    expect(within(fieldOf(form, 'conditions[0].left')).getByTestId('field-error').textContent).toBe('Left is wrong.');
    expect(within(fieldOf(form, 'combine')).getByTestId('field-error').textContent).toBe('Combine is wrong.');
    expect(within(fieldOf(form, 'conditions')).getAllByTestId('field-error').map((node) => node.textContent)).toContain('Too few.');
    expect(within(form).getAllByTestId('field-error')).toHaveLength(4);
    expect(within(screen.getByRole('alert')).getByTestId('field-error').textContent).toBe('nope: Unrecognized key: "nope"');
  });

  it('previews an expression field against the sample data', async () => {
    const sampleScope = { trigger: { subject: 'Invoice 42' } };
    const { form } = renderType('notify.owner', { title: 'New: {{ trigger.subject }}' }, { context: { sampleScope } });
    await waitFor(() => expect(within(fieldOf(form, 'title')).getByTestId('expression-preview').dataset.state).toBe('value'));
    expect(within(fieldOf(form, 'title')).getByTestId('expression-preview').textContent).toContain('"New: Invoice 42"');
  });
});
