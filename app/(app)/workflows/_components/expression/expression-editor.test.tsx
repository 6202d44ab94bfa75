// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { editorText, renderWithI18n, setEditorText } from './_testing/dom';
import { ExpressionEditor } from './expression-editor';
import type { SampleScope } from './_lib/preview';

vi.mock('next/navigation', () => ({ useRouter: () => ({ refresh() {} }) }));

afterEach(cleanup);

const sample: SampleScope = {
  trigger: { subject: 'Invoice 42', from: { name: 'Ann', email: 'ann@example.com' } },
  nodes: { extract: { total: 7 } },
  now: '2026-03-01T10:00:00.000Z',
};

function Harness({ initial, sampleScope, onValue }: { initial: string; sampleScope?: SampleScope | null; onValue?: (value: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <ExpressionEditor
      value={value}
      sampleScope={sampleScope}
      ariaLabel="Subject"
      onChange={(next) => {
        setValue(next);
        onValue?.(next);
      }}
    />
  );
}

describe('ExpressionEditor', () => {
  it('shows the text and emits the member’s edits', () => {
    const onValue = vi.fn();
    renderWithI18n(<Harness initial="Hello" onValue={onValue} />);
    const editor = screen.getByTestId('expression-editor');
    expect(editorText(editor)).toBe('Hello');
    setEditorText(editor, 'Hello {{ trigger.from.name }}');
    expect(onValue).toHaveBeenLastCalledWith('Hello {{ trigger.from.name }}');
  });

  it('previews a whole expression as its value', async () => {
    renderWithI18n(<Harness initial="{{ nodes.extract.total * 2 }}" sampleScope={sample} />);
    await waitFor(() => expect(screen.getByTestId('expression-preview').dataset.state).toBe('value'));
    expect(screen.getByTestId('expression-preview').textContent).toContain('14');
  });

  it('previews text interpolation', async () => {
    renderWithI18n(<Harness initial="Re: {{ trigger.subject }} for {{ trigger.from.name }}" sampleScope={sample} />);
    await waitFor(() => expect(screen.getByTestId('expression-preview').dataset.state).toBe('value'));
    expect(screen.getByTestId('expression-preview').textContent).toContain('"Re: Invoice 42 for Ann"');
  });

  it('previews an error', async () => {
    renderWithI18n(<Harness initial="{{ trigger.subject + }}" sampleScope={sample} />);
    await waitFor(() => expect(screen.getByTestId('expression-preview').dataset.state).toBe('error'));
    expect(screen.getByTestId('expression-preview').textContent).toMatch(/Error: Expression in params/);
  });

  it('says when there is no sample data', async () => {
    renderWithI18n(<Harness initial="{{ trigger.subject }}" sampleScope={null} />);
    await waitFor(() => expect(screen.getByTestId('expression-preview').dataset.state).toBe('noSample'));
    expect(screen.getByTestId('expression-preview').textContent).toContain('No sample data');
  });

  it('shows no preview for plain text', () => {
    renderWithI18n(<Harness initial="plain text" sampleScope={sample} />);
    expect(screen.queryByTestId('expression-preview')).toBeNull();
  });

  it('keeps a single-line field on one line', () => {
    const onValue = vi.fn();
    renderWithI18n(<Harness initial="" onValue={onValue} />);
    setEditorText(screen.getByTestId('expression-editor'), 'a\nb');
    expect(onValue).toHaveBeenLastCalledWith('a b');
  });
});
