import { describe, expect, it } from 'vitest';
import { runNode } from '../testing';
import { waitNode } from './wait.node';

const now = new Date('2026-03-01T10:00:00Z');

describe('flow.wait', () => {
  it.each([
    [{ mode: 'duration', amount: 90, unit: 'seconds' }, '2026-03-01T10:01:30.000Z'],
    [{ mode: 'duration', amount: 2, unit: 'days' }, '2026-03-03T10:00:00.000Z'],
    [{ mode: 'until', until: '2026-03-05T08:00:00+01:00' }, '2026-03-05T07:00:00.000Z'],
  ])('%j suspends waiting until %s', async (params, until) => {
    const result = await runNode(waitNode, { params, now });
    expect(result).toMatchObject({ kind: 'suspend', mode: 'waiting' });
    expect((result as { until: Date }).until.toISOString()).toBe(until);
  });

  it('passes its input on when the timer resumes it', async () => {
    const result = await runNode(waitNode, { params: { mode: 'duration', amount: 1, unit: 'hours' }, input: { main: { a: 1 } }, resume: { reason: 'timer' }, now });
    expect(result).toEqual({ data: { a: 1 } });
  });

  it('continues at once for a date already past', async () => {
    expect(await runNode(waitNode, { params: { mode: 'until', until: '2020-01-01T00:00:00Z' }, now, input: { main: 1 } })).toEqual({ data: 1 });
  });

  it.each([
    [{ mode: 'duration', amount: 31, unit: 'days' }],
    [{ mode: 'until', until: '2027-01-01T00:00:00Z' }],
    [{ mode: 'until', until: 'tomorrow' }],
  ])('%j fails invalid_parameter', async (params) => {
    await expect(runNode(waitNode, { params, now })).rejects.toMatchObject({ code: 'invalid_parameter', kind: 'permanent' });
  });
});
