// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../expression/_testing/dom';
import { NodeSettingsForm, type NodeSettings } from './node-settings-form';

vi.mock('next/navigation', () => ({ useRouter: () => ({ refresh() {} }) }));

afterEach(cleanup);

const defaults = { maxAttempts: 3, delayMs: 5_000, timeoutMs: 120_000 };

function renderSettings(initial: NodeSettings, issues: { path: string; message: string }[] = []) {
  const emitted: NodeSettings[] = [];
  function Harness() {
    const [settings, setSettings] = useState(initial);
    return (
      <NodeSettingsForm
        settings={settings}
        defaults={defaults}
        issues={issues}
        onChange={(next) => {
          emitted.push(next);
          setSettings(next);
        }}
      />
    );
  }
  renderWithI18n(<Harness />);
  return emitted;
}

const last = <T,>(items: T[]) => items[items.length - 1];

describe('NodeSettingsForm', () => {
  it('shows the type’s effective defaults as placeholders', () => {
    renderSettings({ name: 'Send' });
    expect(screen.getByLabelText<HTMLInputElement>('Attempts').placeholder).toBe('default: 3');
    expect(screen.getByLabelText<HTMLInputElement>('Delay between attempts (ms)').placeholder).toBe('default: 5000');
    expect(screen.getByLabelText<HTMLInputElement>('Timeout per attempt (ms)').placeholder).toBe('default: 120000');
    expect(screen.getByLabelText<HTMLSelectElement>('On error').value).toBe('fail');
  });

  it('sets retry as a pair, completing the other half with its default, and clears it', () => {
    const emitted = renderSettings({ name: 'Send', onError: 'fail', disabled: false });
    fireEvent.change(screen.getByLabelText('Attempts'), { target: { value: '5' } });
    expect(last(emitted)).toEqual({ name: 'Send', onError: 'fail', disabled: false, retry: { maxAttempts: 5, delayMs: 5_000 } });
    fireEvent.change(screen.getByLabelText('Attempts'), { target: { value: '' } });
    expect(last(emitted)).toEqual({ name: 'Send', onError: 'fail', disabled: false });
  });

  it('edits onError, disabled, timeout and notes', () => {
    const emitted = renderSettings({ name: 'Send' });
    fireEvent.change(screen.getByLabelText('On error'), { target: { value: 'errorPort' } });
    fireEvent.click(screen.getByLabelText('Disabled'));
    fireEvent.change(screen.getByLabelText('Timeout per attempt (ms)'), { target: { value: '60000' } });
    fireEvent.change(screen.getByLabelText('Notes'), { target: { value: 'Why this node' } });
    expect(last(emitted)).toEqual({ name: 'Send', onError: 'errorPort', disabled: true, timeoutMs: 60_000, notes: 'Why this node' });
    fireEvent.change(screen.getByLabelText('Notes'), { target: { value: '' } });
    expect(last(emitted)).toEqual({ name: 'Send', onError: 'errorPort', disabled: true, timeoutMs: 60_000 });
  });

  it('says when a value is out of the spec’s range', () => {
    renderSettings({ name: 'Send' });
    fireEvent.change(screen.getByLabelText('Attempts'), { target: { value: '11' } });
    expect(screen.getAllByTestId('field-error').map((node) => node.textContent)).toEqual(['Between 1 and 10.']);
  });

  it('shows the server’s issues at their fields, from graph paths', () => {
    renderSettings({ name: 'Send', timeoutMs: 999 }, [
      { path: 'nodes[3].timeoutMs', message: 'Too small: expected number to be >=5000' },
      { path: 'nodes[3].params.url', message: 'Not for this form.' },
    ]);
    const errors = screen.getAllByTestId('field-error').map((node) => node.textContent);
    expect(errors).toContain('Too small: expected number to be >=5000');
    expect(errors).not.toContain('Not for this form.');
  });

  it('asks for a name', () => {
    renderSettings({ name: '' });
    expect(screen.getByTestId('field-error').textContent).toBe('Give the node a name.');
  });
});
