import { describe, expect, it } from 'vitest';
import { runNode } from '../testing';
import { datetimeNode } from './datetime.node';

const now = new Date('2026-03-01T10:00:00Z');

describe('data.datetime', () => {
  it.each([
    [{ operation: 'now', timeZone: 'Europe/Paris' }, { iso: '2026-03-01T10:00:00.000Z', local: '2026-03-01T11:00:00.000+01:00', timeZone: 'Europe/Paris' }],
    [{ operation: 'parse', date: '2026-07-14 08:30', timeZone: 'Europe/Paris' }, { iso: '2026-07-14T06:30:00.000Z' }],
    [{ operation: 'parse', date: '2026-07-14T08:30:00Z', timeZone: 'Europe/Paris' }, { iso: '2026-07-14T08:30:00.000Z', local: '2026-07-14T10:30:00.000+02:00' }],
    [{ operation: 'format', date: '2026-07-14T08:30:00Z', pattern: 'yyyy-MM-dd HH:mm', timeZone: 'America/New_York' }, { formatted: '2026-07-14 04:30' }],
    [{ operation: 'add', date: '2026-03-28T12:00:00', amount: 1, unit: 'days', timeZone: 'Europe/Paris' }, { iso: '2026-03-29T10:00:00.000Z' }],
    [{ operation: 'subtract', date: '2026-03-01T00:00:00Z', amount: 2, unit: 'hours' }, { iso: '2026-02-28T22:00:00.000Z' }],
    [{ operation: 'diff', date: '2026-03-03T00:00:00Z', otherDate: '2026-03-01T00:00:00Z', unit: 'days' }, { value: 2, milliseconds: 172_800_000 }],
  ])('%j', async (params, expected) => {
    const result = (await runNode(datetimeNode, { params, now })) as { data: unknown };
    expect(result.data).toMatchObject(expected);
  });

  it.each([
    [{ operation: 'parse', date: 'not a date' }],
    [{ operation: 'parse' }],
    [{ operation: 'add', date: '2026-01-01T00:00:00Z' }],
    [{ operation: 'diff', date: '2026-01-01T00:00:00Z' }],
  ])('%j fails invalid_parameter', async (params) => {
    await expect(runNode(datetimeNode, { params, now })).rejects.toMatchObject({ code: 'invalid_parameter', kind: 'permanent' });
  });

  it('refuses an unknown time zone', () => {
    expect(datetimeNode.params.safeParse({ operation: 'now', timeZone: 'Mars/Olympus' }).success).toBe(false);
  });
});
