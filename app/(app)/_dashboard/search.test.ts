import { describe, expect, it } from 'vitest';
import { customProblem, defaultView, queryOfView, searchOfView, viewFromSearch, zonedMidnight } from './search';

const workflowId = '3f6c2a57-1b7e-4c1d-9a0b-2f1e5d6c7b8a';

describe('the view in the address', () => {
  it('the plain home page is the default view (me, 7 days) and writes no parameter', () => {
    const view = viewFromSearch(new URLSearchParams(''));
    expect(view).toEqual(defaultView);
    expect(searchOfView(view)).toBe('');
  });

  it('a shared address reloads the same view', () => {
    const search = `?period=custom&from=2026-11-01&to=2026-11-30&tz=Europe%2FParis&scope=org&workflowId=${workflowId}`;
    const view = viewFromSearch(new URLSearchParams(search));
    expect(view).toMatchObject({ period: 'custom', from: '2026-11-01', to: '2026-11-30', tz: 'Europe/Paris', scope: 'org', workflowId });
    expect(viewFromSearch(new URLSearchParams(searchOfView(view)))).toEqual(view);
  });

  it('malformed values fall back to the defaults', () => {
    const view = viewFromSearch(new URLSearchParams('period=1y&scope=all&workflowId=nope&from=yesterday&tz=%3Cscript%3E'));
    expect(view).toEqual(defaultView);
  });

  it('a member filter is written only with the organisation scope', () => {
    expect(searchOfView({ ...defaultView, memberId: workflowId })).toBe('');
    expect(searchOfView({ ...defaultView, scope: 'org', memberId: workflowId })).toBe(`?scope=org&memberId=${workflowId}`);
  });
});

describe('a custom period', () => {
  it('runs from the first day’s local midnight to the midnight after the last day, in the view’s zone', () => {
    const query = queryOfView({ ...defaultView, period: 'custom', from: '2026-10-24', to: '2026-10-25' }, 'Europe/Paris');
    expect(query).toMatchObject({ period: 'custom', tz: 'Europe/Paris', from: '2026-10-23T22:00:00.000Z', to: '2026-10-25T23:00:00.000Z' });
  });

  it('local midnight follows daylight saving (Paris: +2 in summer, +1 in winter)', () => {
    expect(zonedMidnight('2026-07-01', 'Europe/Paris').toISOString()).toBe('2026-06-30T22:00:00.000Z');
    expect(zonedMidnight('2026-12-01', 'Europe/Paris').toISOString()).toBe('2026-11-30T23:00:00.000Z');
    expect(zonedMidnight('2026-12-01', 'America/New_York').toISOString()).toBe('2026-12-01T05:00:00.000Z');
  });

  it('is not asked while incomplete, reversed or longer than 92 days', () => {
    expect(customProblem({ ...defaultView, period: 'custom', from: '2026-11-01' })).toBe('missing');
    expect(customProblem({ ...defaultView, period: 'custom', from: '2026-11-02', to: '2026-11-01' })).toBe('order');
    expect(customProblem({ ...defaultView, period: 'custom', from: '2026-01-01', to: '2026-06-01' })).toBe('tooLong');
    expect(queryOfView({ ...defaultView, period: 'custom', from: '2026-11-01' }, 'UTC')).toBeNull();
  });

  it('a preset period sends no bounds', () => {
    expect(queryOfView({ ...defaultView, period: '24h', from: '2026-11-01', to: '2026-11-02' }, 'UTC')).toEqual({ scope: 'me', period: '24h', tz: 'UTC' });
  });
});
