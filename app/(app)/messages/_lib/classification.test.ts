import { describe, expect, it } from 'vitest';
import { aiClassificationOf, confidencePercent } from './classification';

describe('aiClassificationOf', () => {
  it('reads the label and confidence an ai.classify step wrote', () => {
    expect(aiClassificationOf({ ai: { label: 'invoice', confidence: 0.92, nodeId: 'classify', executionId: 'x' } })).toEqual({ label: 'invoice', confidence: 0.92 });
  });

  it('keeps the label when the confidence is missing or out of range', () => {
    expect(aiClassificationOf({ ai: { label: 'other' } })).toEqual({ label: 'other', confidence: null });
    expect(aiClassificationOf({ ai: { label: 'other', confidence: 7 } })).toEqual({ label: 'other', confidence: null });
    expect(aiClassificationOf({ ai: { label: 'other', confidence: '0.5' } })).toEqual({ label: 'other', confidence: null });
  });

  it('answers null for anything else in the free-form classification', () => {
    for (const value of [null, undefined, 'invoice', [], {}, { category: 'work' }, { ai: null }, { ai: [] }, { ai: { label: '' } }, { ai: { label: 3 } }, JSON.parse('{"__proto__": {"ai": {"label": "x"}}}')]) {
      expect(aiClassificationOf(value)).toBeNull();
    }
  });

  it('bounds a long label', () => {
    expect(aiClassificationOf({ ai: { label: 'x'.repeat(500) } })?.label).toHaveLength(64);
  });
});

describe('confidencePercent', () => {
  it('rounds to a whole percentage', () => {
    expect(confidencePercent(0.92)).toBe(92);
    expect(confidencePercent(0.925)).toBe(93);
    expect(confidencePercent(0)).toBe(0);
    expect(confidencePercent(1)).toBe(100);
  });
});
