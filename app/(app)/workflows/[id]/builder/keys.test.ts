import { describe, expect, it } from 'vitest';
import { actionOfKey } from './use-builder-keys';

const key = (key: string, extra: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }> = {}) =>
  actionOfKey({ key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...extra });

describe('builder shortcuts', () => {
  it('maps undo/redo with Ctrl or Cmd', () => {
    expect(key('z', { ctrlKey: true })).toBe('undo');
    expect(key('Z', { metaKey: true, shiftKey: true })).toBe('redo');
    expect(key('y', { ctrlKey: true })).toBe('redo');
  });

  it('maps single keys only without modifiers', () => {
    expect(key('d')).toBe('disable');
    expect(key('d', { ctrlKey: true })).toBe('duplicate');
    expect(key('L', { shiftKey: true })).toBe('tidy');
    expect(key('F', { shiftKey: true })).toBe('fullWindow');
    expect(key('f')).toBe('fit');
    expect(key('l')).toBeNull();
    expect(key('n', { altKey: true })).toBeNull();
    expect(key('Delete')).toBe('delete');
    expect(key('?', { shiftKey: true })).toBe('help');
  });
});
