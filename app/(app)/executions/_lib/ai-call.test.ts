import { describe, expect, it } from 'vitest';
import { aiCallOf, formatUsd } from './ai-call';

const call = {
  purpose: 'classify',
  provider: 'ai_generic_compatible',
  model: 'fake-model',
  simulated: false,
  prompt: { system: 'x', messages: [] },
  answer: { label: 'invoice', confidence: 0.92 },
  usage: { inputTokens: 1000, outputTokens: 500, reasoningTokens: null },
  costUsd: 0.02,
};

describe('aiCallOf', () => {
  it('summarises the call an AI step recorded: model, tokens and cost', () => {
    expect(aiCallOf({ label: 'invoice', confidence: 0.92, costUsd: 0.02, ai: call })).toEqual({
      model: 'fake-model',
      simulated: false,
      inputTokens: 1000,
      outputTokens: 500,
      reasoningTokens: null,
      costUsd: 0.02,
    });
  });

  it('a simulated answer has no model, usage or cost', () => {
    expect(aiCallOf({ ai: { ...call, provider: null, model: null, simulated: true, usage: null, costUsd: null } })).toEqual({
      model: null,
      simulated: true,
      inputTokens: null,
      outputTokens: null,
      reasoningTokens: null,
      costUsd: null,
    });
  });

  it('answers null for the data of other steps', () => {
    for (const data of [null, 'text', [], {}, { label: 'x' }, { ai: 'x' }, { ai: { model: 'm' } }, { ai: { simulated: false } }, JSON.parse('{"__proto__": {"ai": {}}}')]) {
      expect(aiCallOf(data)).toBeNull();
    }
  });

  it('ignores counts that are not counts', () => {
    expect(aiCallOf({ ai: { ...call, usage: { inputTokens: -1, outputTokens: 'many' }, costUsd: Number.NaN } })).toMatchObject({ inputTokens: null, outputTokens: null, costUsd: null });
  });
});

describe('formatUsd', () => {
  it('shows cents at least and a cheap call’s fraction', () => {
    expect(formatUsd(0.02, 'en')).toBe('$0.02');
    expect(formatUsd(0.000125, 'en')).toBe('$0.000125');
    expect(formatUsd(3, 'en')).toBe('$3.00');
    expect(formatUsd(0.02, 'fr')).toMatch(/^0,02\s\$US$/);
  });
});
