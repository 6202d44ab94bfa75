import { CompletionContext } from '@codemirror/autocomplete';
import { EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { completePath, openPieceStart } from './completions';
import { scopeCompletionSource } from './language';
import type { SampleScope } from './preview';

const sample: SampleScope = {
  trigger: {
    subject: 'Invoice 42',
    from: { name: 'Ann', email: 'ann@example.com' },
    to: [{ email: 'me@example.com', name: 'Me' }, { email: 'you@example.com' }],
    'odd key': 1,
  },
  input: { total: 3 },
  nodes: { extract: { amount: 12.5, lines: [{ sku: 'A' }] }, 'mail-draft': { draftId: 'd1' } },
  execution: { id: 'e1', workflowId: 'w1', simulated: true },
  now: '2026-03-01T10:00:00.000Z',
};

const labels = (text: string, explicit = false) => completePath(text, sample, explicit)?.options.map((option) => option.label);

describe('completePath', () => {
  it('lists the trigger’s keys after `{{ trigger.`', () => {
    expect(labels('{{ trigger.')).toEqual(['subject', 'from', 'to', 'odd key']);
    expect(completePath('{{ trigger.', sample)?.from).toBe('{{ trigger.'.length);
  });

  it('lists node ids after `nodes.`, with backticks for ids that are not names', () => {
    const result = completePath('{{ nodes.', sample);
    expect(result?.options.map((option) => option.label)).toEqual(['extract', 'mail-draft']);
    expect(result?.options.map((option) => option.apply)).toEqual(['extract', '`mail-draft`']);
  });

  it('walks nested keys and lists through a list’s objects', () => {
    expect(labels('{{ trigger.from.')).toEqual(['name', 'email']);
    expect(labels('{{ trigger.to.')).toEqual(['email', 'name']);
    expect(labels('{{ nodes.extract.lines.')).toEqual(['sku']);
    expect(labels('{{ nodes.`mail-draft`.')).toEqual(['draftId']);
  });

  it('filters by the word typed and replaces it', () => {
    const result = completePath('Hi {{ trigger.from.em', sample);
    expect(result?.options.map((option) => option.label)).toEqual(['email']);
    expect(result?.from).toBe('Hi {{ trigger.from.'.length);
  });

  it('offers the scope’s roots at the start of an expression', () => {
    expect(labels('{{ ')).toEqual(['trigger', 'input', 'nodes', 'execution', 'now']);
    expect(labels('{{ n')).toEqual(['nodes', 'now']);
    expect(labels('{{ $count(tr')).toEqual(['trigger']);
  });

  it('describes each value', () => {
    const details = Object.fromEntries(completePath('{{ trigger.', sample)!.options.map((option) => [option.label, option.detail]));
    expect(details).toEqual({ subject: '"Invoice 42"', from: 'object', to: 'list (2)', 'odd key': '1' });
  });

  it('offers JSONata functions after `$`', () => {
    expect(labels('{{ $lower')).toEqual(['$lowercase']);
  });

  it('offers nothing outside `{{ }}`, after a closed piece, or past an unknown key', () => {
    expect(completePath('trigger.', sample)).toBeNull();
    expect(completePath('{{ trigger.subject }} trigger.', sample)).toBeNull();
    expect(completePath('{{ trigger.nothing.', sample)).toBeNull();
    expect(completePath('{{ $x.', sample)).toBeNull();
  });

  it('still offers the roots without sample data', () => {
    expect(completePath('{{ ', null)?.options.map((option) => option.label)).toEqual(['trigger', 'input', 'nodes', 'execution', 'now']);
    expect(completePath('{{ trigger.', null)).toBeNull();
  });

  it('finds the open piece', () => {
    expect(openPieceStart('a {{ b', 6)).toBe(4);
    expect(openPieceStart('a {{ b }} c', 11)).toBe(-1);
  });
});

describe('the editor’s completion source', () => {
  it('answers CodeMirror with the paths at the cursor', () => {
    const doc = 'Subject: {{ trigger.fr';
    const state = EditorState.create({ doc });
    const result = scopeCompletionSource(() => sample)(new CompletionContext(state, doc.length, false));
    expect(result?.from).toBe(doc.length - 2);
    expect(result?.options.map((option) => option.label)).toEqual(['from']);
  });

  it('lists node ids on the second line of a body', () => {
    const doc = 'Hello,\n{{ nodes.';
    const state = EditorState.create({ doc });
    const result = scopeCompletionSource(() => sample)(new CompletionContext(state, doc.length, false));
    expect(result?.options.map((option) => option.label)).toEqual(['extract', 'mail-draft']);
    expect(result?.from).toBe(doc.length);
  });
});
