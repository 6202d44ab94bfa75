/**
 * A KPI's change against the previous period, and its colour by meaning: more failures is bad, more
 * runs is neither good nor bad. A rate moves in points (a success rate from 90 % to 95 % is +5 pts,
 * not +5.6 %); other figures in percent, with no percent at all when the previous value was 0.
 */
export type Meaning = 'upIsGood' | 'downIsGood' | 'neutral';
export type Tone = 'good' | 'bad' | 'neutral';

export interface Change {
  direction: 'up' | 'down' | 'flat';
  /** Percent (or points for a rate); null: nothing to compare with ("—"). */
  amount: number | null;
  unit: 'percent' | 'points';
  tone: Tone;
}

export function changeOf(current: number | null, previous: number | null, meaning: Meaning, kind: 'count' | 'rate' = 'count'): Change {
  const unit = kind === 'rate' ? 'points' : 'percent';
  if (current === null || previous === null || (kind === 'count' && previous === 0)) {
    return { direction: 'flat', amount: null, unit, tone: 'neutral' };
  }
  const amount = kind === 'rate' ? (current - previous) * 100 : ((current - previous) / previous) * 100;
  const direction = Math.abs(amount) < 0.05 ? 'flat' : amount > 0 ? 'up' : 'down';
  const tone: Tone = direction === 'flat' || meaning === 'neutral' ? 'neutral' : (direction === 'up') === (meaning === 'upIsGood') ? 'good' : 'bad';
  return { direction, amount, unit, tone };
}
