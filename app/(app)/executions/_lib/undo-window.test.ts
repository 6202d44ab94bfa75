/** The "Undo runs…" window: the last 24 hours by default, in the reader's time zone; what the server would refuse is null. */
import { describe, expect, it } from 'vitest';
import { defaultUndoWindow, localInputValue, undoWindowOf } from './undo-window';

describe('undo window', () => {
  it('defaults to the last 24 hours, ending a minute ahead so a run of this minute is in', () => {
    const now = new Date(2026, 5, 2, 10, 15, 30);
    expect(defaultUndoWindow(now)).toEqual({ from: '2026-06-01T10:15', to: '2026-06-02T10:16' });
    expect(localInputValue(new Date(2026, 0, 5, 7, 3))).toBe('2026-01-05T07:03');
  });

  it('reads the fields as local instants; refuses an empty, backwards or over-30-day window', () => {
    expect(undoWindowOf({ from: '2026-06-01T10:15', to: '2026-06-02T10:16' })).toEqual({
      from: new Date(2026, 5, 1, 10, 15).toISOString(),
      to: new Date(2026, 5, 2, 10, 16).toISOString(),
    });
    expect(undoWindowOf({ from: '2026-05-01T00:00', to: '2026-05-31T00:00' })).not.toBeNull();
    expect(undoWindowOf({ from: '2026-05-01T00:00', to: '2026-05-31T00:01' })).toBeNull();
    expect(undoWindowOf({ from: '2026-06-02T10:00', to: '2026-06-02T10:00' })).toBeNull();
    expect(undoWindowOf({ from: '2026-06-02T11:00', to: '2026-06-02T10:00' })).toBeNull();
    expect(undoWindowOf({ from: '', to: '2026-06-02T10:00' })).toBeNull();
  });
});
