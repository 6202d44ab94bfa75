import { describe, expect, it } from 'vitest';
import { undoOf } from './undo';

describe('archive undo', () => {
  it('archive shows an undo that moves the conversation back to the inbox', () => {
    expect(undoOf({ action: 'archive' })).toEqual({ action: 'unarchive' });
  });

  it('offers no undo for what it cannot take back this way', () => {
    expect(undoOf({ action: 'markRead' })).toBeNull();
    expect(undoOf({})).toBeNull();
  });
});
