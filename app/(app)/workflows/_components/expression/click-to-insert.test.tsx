// @vitest-environment jsdom
/**
 * Issue 19 §6: clicking a field in a step's input or output panel inserts its expression into the
 * focused expression field: a whole `{{ path }}` outside an expression, the bare path inside one;
 * the field emits the edit like typing does. The panel lists the data's fields and those only the
 * node type's declared shape knows (a mail trigger's, before any run).
 */
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { findNodeType } from '@/server/engine/nodes/registry';
import { act } from 'react';
import { EditorSelection } from '@codemirror/state';
import { editorText, editorViewOf, renderWithI18n, setEditorText } from './_testing/dom';
import { ExpressionEditor } from './expression-editor';
import { FieldList } from './field-list';

vi.mock('next/navigation', () => ({ useRouter: () => ({ refresh() {} }) }));

afterEach(cleanup);

const mailShape = z.toJSONSchema(findNodeType('trigger.mail', 1)!.output!, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;

function Harness({ emitted }: { emitted: string[] }) {
  const [value, setValue] = useState('Re: ');
  return (
    <div>
      <ExpressionEditor
        value={value}
        ariaLabel="Subject"
        preview={false}
        onChange={(next) => {
          emitted.push(next);
          setValue(next);
        }}
      />
      <FieldList title="Input fields" root="input" value={{ total: 3, lines: [{ sku: 'A' }] }} schema={mailShape} testId="input-fields" />
    </div>
  );
}

function focusEditorAtEnd() {
  const view = editorViewOf(screen.getByTestId('expression-editor'));
  act(() => {
    view.dispatch({ selection: EditorSelection.cursor(view.state.doc.length) });
    fireEvent.focus(view.contentDOM);
  });
}

describe('click a field to insert its expression', () => {
  it('lists the data’s fields and the declared shape’s, nested ones with their full path', () => {
    renderWithI18n(<Harness emitted={[]} />);
    const paths = within(screen.getByTestId('input-fields'))
      .getAllByTestId('insert-field')
      .map((button) => button.dataset.path);
    expect(paths).toEqual(expect.arrayContaining(['input.total', 'input.lines', 'input.lines.sku', 'input.subject', 'input.from', 'input.from.email']));
  });

  it('inserts `{{ input.from.email }}` at the cursor of the focused field, as an edit', () => {
    const emitted: string[] = [];
    renderWithI18n(<Harness emitted={emitted} />);
    focusEditorAtEnd();
    fireEvent.click(screen.getByRole('button', { name: 'Insert {{ input.from.email }}' }));
    expect(editorText(screen.getByTestId('expression-editor'))).toBe('Re: {{ input.from.email }}');
    expect(emitted.at(-1)).toBe('Re: {{ input.from.email }}');
  });

  it('inside an open expression, inserts the bare path', () => {
    const emitted: string[] = [];
    renderWithI18n(<Harness emitted={emitted} />);
    setEditorText(screen.getByTestId('expression-editor'), '{{ $uppercase(');
    focusEditorAtEnd();
    fireEvent.click(screen.getByRole('button', { name: 'Insert {{ input.subject }}' }));
    expect(emitted.at(-1)).toBe('{{ $uppercase(input.subject');
  });
});
