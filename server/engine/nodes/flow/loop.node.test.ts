import { describe, expect, it } from 'vitest';
import type { NodeResult } from '../../contract/define-node';
import { fakeContext } from '../testing';
import { loopNode } from './loop.node.ts';

const workflowId = '5b1d9a52-4f0c-4d55-9d5b-2f7d3f2a9e10';
type Child = { index: number; executionId: string; status: string; output: unknown; error: null };

/** Drives the loop as the engine would: every started child ends with `outcome(index)`. */
async function drive(params: Record<string, unknown>, options: { simulated?: boolean; outcome?: (index: number) => string } = {}) {
  const children: Child[] = [];
  let state: unknown = null;
  let resume: { reason: 'children' } | null = null;
  const windows: number[] = [];
  for (let round = 0; round < 100; round += 1) {
    const { context, started } = fakeContext({ params: loopNode.params.parse(params), state, resume, children, simulated: options.simulated });
    const result: NodeResult = await loopNode.execute(context);
    if (result.kind !== 'suspend') return { result, windows, children };
    windows.push(started.length);
    for (const child of started) {
      const status = options.outcome?.(child.index) ?? 'succeeded';
      children.push({ index: child.index, executionId: `c${child.index}`, status, output: { n: (child.triggerData.item as number) * 2 }, error: null });
    }
    state = result.state;
    resume = { reason: 'children' };
  }
  throw new Error('loop did not end');
}

describe('flow.loop', () => {
  it('runs every item in windows of `concurrency` and collects results in order', async () => {
    const { result, windows } = await drive({ items: [1, 2, 3, 4, 5], workflowId, concurrency: 2 });
    expect(windows).toEqual([2, 2, 1]);
    expect(result).toEqual({
      data: { results: [{ n: 2 }, { n: 4 }, { n: 6 }, { n: 8 }, { n: 10 }], loop: { total: 5, started: 5, succeeded: 5, failed: 0, concurrency: 2, status: 'done' } },
    });
  });

  it('runs only the first 3 items in a test run and reports simulatedLimit', async () => {
    const { result } = await drive({ items: [1, 2, 3, 4, 5, 6], workflowId, concurrency: 10 }, { simulated: true });
    expect(result).toMatchObject({ data: { loop: { total: 3, succeeded: 3, simulatedLimit: 3, status: 'done' } } });
  });

  it('fails loop_failed when an iteration failed', async () => {
    await expect(drive({ items: [1, 2, 3], workflowId }, { outcome: (index) => (index === 1 ? 'failed' : 'succeeded') })).rejects.toMatchObject({
      code: 'loop_failed',
      details: { loop: { failed: 1, succeeded: 2, status: 'failed' } },
    });
  });

  it('outputs null for failed items when asked not to fail', async () => {
    const { result } = await drive({ items: [1, 2], workflowId, failOnItemError: false }, { outcome: (index) => (index === 0 ? 'failed' : 'succeeded') });
    expect(result).toMatchObject({ data: { results: [null, { n: 4 }], loop: { failed: 1 } } });
  });

  it('ends at once for no items', async () => {
    const { result, windows } = await drive({ items: [], workflowId });
    expect(windows).toEqual([]);
    expect(result).toMatchObject({ data: { results: [], loop: { total: 0, status: 'done' } } });
  });

  it('fails loop_timeout past its time budget', async () => {
    const { context } = fakeContext({
      params: loopNode.params.parse({ items: [1], workflowId, timeoutMs: 60_000 }),
      state: { total: 1, started: 1, startedAt: '2026-03-01T09:00:00Z' },
      resume: { reason: 'children' },
      children: [{ index: 0, executionId: 'c0', status: 'running', output: null, error: null }],
    });
    await expect(loopNode.execute(context)).rejects.toMatchObject({ code: 'loop_timeout', details: { loop: { status: 'timeout' } } });
  });

  it.each([[{ concurrency: 21 }], [{ concurrency: 0 }], [{ items: new Array(10_001).fill(0) }]])('refuses %j', (extra) => {
    expect(loopNode.params.safeParse({ items: [1], workflowId, ...extra }).success).toBe(false);
  });
});
