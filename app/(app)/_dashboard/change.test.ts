import { describe, expect, it } from 'vitest';
import { changeOf } from './change';

describe('a KPI’s change against the previous period', () => {
  it('is in percent of the previous value', () => {
    expect(changeOf(15, 10, 'neutral')).toMatchObject({ direction: 'up', amount: 50, unit: 'percent' });
    expect(changeOf(5, 10, 'neutral')).toMatchObject({ direction: 'down', amount: -50 });
  });

  it('has no percent when the previous value was 0', () => {
    expect(changeOf(7, 0, 'neutral')).toEqual({ direction: 'flat', amount: null, unit: 'percent', tone: 'neutral' });
    expect(changeOf(null, 0.5, 'upIsGood', 'rate').amount).toBeNull();
  });

  it('more runs is neither good nor bad', () => {
    expect(changeOf(20, 10, 'neutral').tone).toBe('neutral');
  });

  it('a success rate going down is bad, going up is good, in points', () => {
    expect(changeOf(0.8, 0.9, 'upIsGood', 'rate')).toMatchObject({ direction: 'down', tone: 'bad', unit: 'points' });
    expect(changeOf(0.8, 0.9, 'upIsGood', 'rate').amount).toBeCloseTo(-10);
    expect(changeOf(0.95, 0.9, 'upIsGood', 'rate').tone).toBe('good');
  });

  it('a longer median duration or a higher spend is bad', () => {
    expect(changeOf(2000, 1000, 'downIsGood').tone).toBe('bad');
    expect(changeOf(500, 1000, 'downIsGood').tone).toBe('good');
  });

  it('no change is flat and neutral', () => {
    expect(changeOf(10, 10, 'upIsGood')).toMatchObject({ direction: 'flat', amount: 0, tone: 'neutral' });
  });
});
