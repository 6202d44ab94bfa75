// @vitest-environment jsdom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { actionOfKey } from './use-builder-keys';
import { builderLayoutKey, readBuilderLayout, useBuilderLayout } from './use-builder-layout';

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

describe('full-window canvas', () => {
  it('The canvas can take the whole window: a shortcut (Shift+F) and a toggle, remembered for the next visit', () => {
    expect(actionOfKey({ key: 'F', shiftKey: true, ctrlKey: false, metaKey: false, altKey: false })).toBe('fullWindow');
    const first = renderHook(() => useBuilderLayout());
    expect(first.result.current[0]).toEqual({ fullWindow: false, palette: true, panel: true });
    act(() => first.result.current[1]('fullWindow'));
    act(() => first.result.current[1]('palette'));
    expect(first.result.current[0]).toEqual({ fullWindow: true, palette: false, panel: true });
    first.unmount();

    const next = renderHook(() => useBuilderLayout());
    expect(next.result.current[0]).toEqual({ fullWindow: true, palette: false, panel: true });
    act(() => next.result.current[1]('fullWindow'));
    expect(readBuilderLayout(window.localStorage.getItem(builderLayoutKey))).toEqual({ fullWindow: false, palette: false, panel: true });
  });

  it('reads a damaged or partial stored layout as the default for what it lacks', () => {
    expect(readBuilderLayout('{nope')).toEqual({ fullWindow: false, palette: true, panel: true });
    expect(readBuilderLayout('{"panel":false,"fullWindow":"yes"}')).toEqual({ fullWindow: false, palette: true, panel: false });
  });
});
