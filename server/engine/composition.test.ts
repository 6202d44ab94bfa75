import { describe, expect, it } from 'vitest';
import type { Tx } from '../core/db';
import { composeEngineWith, engineComposition, runHooks, type EngineComposition } from './composition';

describe('engine composition', () => {
  it('refuses to run uncomposed, then answers what the composition root handed it', () => {
    expect(() => engineComposition()).toThrow(/engine not composed/);
    const composition: EngineComposition = { capabilities: () => ({}) as never, hooks: { runClosed: [], runFailed: [], runsCancelled: [] }, reads: { senderContact: async () => null } };
    composeEngineWith(composition);
    expect(engineComposition()).toBe(composition);
  });

  it('runs hooks one after the other, in list order, each awaited before the next', async () => {
    const calls: string[] = [];
    const hook = (name: string, ms: number) => async (_tx: Tx, id: string) => {
      calls.push(`${name} start ${id}`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      calls.push(`${name} end`);
    };
    await runHooks([hook('first', 20), hook('second', 0)], {} as Tx, 'run-1');
    expect(calls).toEqual(['first start run-1', 'first end', 'second start run-1', 'second end']);
  });
});
