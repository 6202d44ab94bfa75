import { describe, expect, it } from 'vitest';
import { hasAiNodes } from './ai-nodes';

describe('hasAiNodes', () => {
  it('is true when an enabled ai.* step is in the graph', () => {
    expect(hasAiNodes({ nodes: [{ type: 'trigger.mail' }, { type: 'ai.classify' }] })).toBe(true);
    expect(hasAiNodes({ nodes: [{ type: 'ai.general', disabled: false }] })).toBe(true);
  });

  it('is false without one, or when every AI step is disabled', () => {
    expect(hasAiNodes({ nodes: [{ type: 'trigger.mail' }, { type: 'logic.if' }] })).toBe(false);
    expect(hasAiNodes({ nodes: [{ type: 'ai.classify', disabled: true }] })).toBe(false);
    expect(hasAiNodes({ nodes: [{ type: 'mail.ai_like' }] })).toBe(false);
    expect(hasAiNodes(null)).toBe(false);
    expect(hasAiNodes({ nodes: [null, 'ai.classify', { type: 7 }] })).toBe(false);
  });
});
