import { describe, expect, it } from 'vitest';
import { bucketRange, executionsHref, journalHref } from './links';

const window = {
  from: '2026-11-30T10:30:00.000Z',
  to: '2026-12-01T10:30:00.000Z',
  buckets: ['2026-11-30T10:00:00.000Z', '2026-11-30T11:00:00.000Z', '2026-12-01T10:00:00.000Z'],
};

describe('drill-down addresses', () => {
  it('a workflow row opens the executions list filtered by workflow, status and window', () => {
    const href = executionsHref({ workflowId: 'w1', status: 'failed', range: { from: window.from, to: window.to } });
    const url = new URL(href, 'http://x');
    expect(url.pathname).toBe('/executions');
    expect(Object.fromEntries(url.searchParams)).toEqual({ workflowId: 'w1', status: 'failed', from: window.from, to: window.to, simulated: 'false', loopIterations: 'false' });
  });

  it('leaves out the filters it is not given, and always lists the runs the figures count (live, no loop iterations)', () => {
    expect(executionsHref({ status: 'succeeded' })).toBe('/executions?status=succeeded&simulated=false&loopIterations=false');
    expect(executionsHref({})).toBe('/executions?simulated=false&loopIterations=false');
  });

  it('an outcome opens the message journal filtered by outcome and window', () => {
    const url = new URL(journalHref({ outcome: 'dispatched', range: { from: window.from, to: window.to } }), 'http://x');
    expect(url.pathname).toBe('/journal');
    expect(Object.fromEntries(url.searchParams)).toEqual({ outcome: 'dispatched', from: window.from, to: window.to });
  });

  it('a bar covers its bucket: its start to the next bucket’s start', () => {
    expect(bucketRange(window, 1)).toEqual({ from: '2026-11-30T11:00:00.000Z', to: '2026-12-01T10:00:00.000Z' });
  });

  it('the first bucket is clipped to the window’s start, the last one ends with the window', () => {
    expect(bucketRange(window, 0)).toEqual({ from: window.from, to: '2026-11-30T11:00:00.000Z' });
    expect(bucketRange(window, 2)).toEqual({ from: '2026-12-01T10:00:00.000Z', to: window.to });
  });
});
