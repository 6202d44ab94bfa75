import { describe, expect, it } from 'vitest';
import { messageAfterPick } from './test-run';

describe('test message picker', () => {
  it('A test message chosen in the dialog is selected in the picker', () => {
    expect(messageAfterPick('', [], ['m1'])).toBe('m1');
    expect(messageAfterPick('m1', ['m1'], ['m1', 'm2'])).toBe('m2');
  });

  it('keeps the selected message when the choice only removed others, and falls back to the first chosen', () => {
    expect(messageAfterPick('m2', ['m1', 'm2'], ['m2'])).toBe('m2');
    expect(messageAfterPick('m1', ['m1', 'm2'], ['m2'])).toBe('m2');
    expect(messageAfterPick('m1', ['m1'], [])).toBe('');
  });
});
