/**
 * Loop: runs a workflow once per item (each its own execution, `startedBy` loop_iteration, holding
 * no slot), at most `concurrency` at a time, in windows: start a window, suspend until its runs end,
 * start the next. Progress lives in the step's state. Output `main`: `{results, loop}` where
 * `results[i]` is item i's run output (null when it failed) and `loop` the step's loop object
 * (the engine copies it to the step). A test run runs only the first 3 items (`simulatedLimit`).
 * The engine refuses iterations of a workflow already in the call chain, its own included
 * (`sub_workflow_recursion`), and postpones a window beyond the member's cap on runs holding no slot:
 * the runs of the window that fit are started (recorded by index), and the next try starts the rest
 * (a window's size is `concurrency` minus the runs still live, so a partial start never exceeds it).
 */
import { z } from 'zod';
import { defineNode, type ChildRuns } from '../../contract/define-node';
import { fail } from '../../contract/failures';

export const loopBounds = { maxItems: 10_000, maxConcurrency: 20, simulatedLimit: 3, maxTimeoutMs: 24 * 3_600_000 } as const;

interface LoopState {
  total: number;
  started: number;
  startedAt: string;
}

type ChildRow = Awaited<ReturnType<ChildRuns['list']>>[number];
const live = new Set(['queued', 'running', 'waiting']);

function itemData(item: unknown, index: number, total: number): Record<string, unknown> {
  return { item, index, total };
}

export const loopNode = defineNode({
  type: 'flow.loop',
  version: 1,
  category: 'flow',
  label: { en: 'Loop over items', fr: 'Boucle sur des éléments' },
  description: {
    en: 'Runs a workflow once per item of a list (up to 10,000), several at a time, and collects the results. The workflow cannot be this one, nor one that calls it.',
    fr: 'Lance un workflow pour chaque élément d’une liste (10 000 au plus), plusieurs à la fois, et rassemble les résultats. Ce workflow ne peut être celui-ci, ni un workflow qui l’appelle.',
  },
  params: z.strictObject({
    items: z.array(z.unknown()).max(loopBounds.maxItems).describe('The items (at most 10,000), usually an expression; each run gets {item, index, total}.'),
    workflowId: z.uuid().describe('The workflow run for each item (one of yours).'),
    concurrency: z.number().int().min(1).max(loopBounds.maxConcurrency).default(5).describe('Runs at a time (1-20, default 5).'),
    timeoutMs: z
      .number()
      .int()
      .min(60_000)
      .max(loopBounds.maxTimeoutMs)
      .default(3_600_000)
      .describe('The whole loop’s time budget in milliseconds (1 minute to 24 hours, default 1 hour); past it the loop fails `loop_timeout`.'),
    failOnItemError: z.boolean().default(true).describe('Fail the step (`loop_failed`) when any item’s run failed (true), or output null results for them (false).'),
  }),
  outputs: ['main'],
  effect: 'none',
  requires: [],
  childKind: 'loop_iteration',
  persistsStepFirst: true,
  stepFields: ['loop'],
  scopes: [],
  workflowParams: ['workflowId'],
  async execute({ params, execution, children, state, now }) {
    const limit = execution.simulated ? Math.min(params.items.length, loopBounds.simulatedLimit) : params.items.length;
    const items = params.items.slice(0, limit);
    const progress: LoopState = (state as LoopState | null) ?? { total: items.length, started: 0, startedAt: now().toISOString() };
    const rows: ChildRow[] = progress.started > 0 ? await children.list() : [];
    const done = rows.filter((row) => !live.has(row.status));
    const succeeded = done.filter((row) => row.status === 'succeeded').length;
    const failed = done.length - succeeded;
    const loop = (status: string) => ({
      total: items.length,
      started: progress.started,
      succeeded,
      failed,
      concurrency: params.concurrency,
      status,
      ...(execution.simulated && params.items.length > loopBounds.simulatedLimit ? { simulatedLimit: loopBounds.simulatedLimit } : {}),
    });

    if (now().getTime() - Date.parse(progress.startedAt) > params.timeoutMs) {
      throw fail.permanent('loop_timeout', { details: { loop: loop('timeout') } });
    }
    const running = progress.started - done.length;
    if (progress.started < items.length && running < params.concurrency) {
      const next = items.slice(progress.started, Math.min(items.length, progress.started + params.concurrency - running));
      const from = progress.started;
      await children.start(next.map((item, offset) => ({ index: from + offset, workflowId: params.workflowId, triggerData: itemData(item, from + offset, items.length) })));
      const nextState: LoopState = { ...progress, started: from + next.length };
      return { kind: 'suspend', mode: 'children', until: null, state: nextState };
    }
    if (done.length < items.length) return { kind: 'suspend', mode: 'children', until: null, state: progress };

    const results: unknown[] = items.map(() => null);
    for (const row of done) if (row.status === 'succeeded' && row.index >= 0 && row.index < results.length) results[row.index] = row.output ?? null;
    if (failed > 0 && params.failOnItemError) {
      throw fail.permanent('loop_failed', {
        message: `${failed} of ${items.length} iterations failed.`,
        details: { loop: loop('failed'), failedExecutionIds: done.filter((row) => row.status !== 'succeeded').slice(0, 20).map((row) => row.executionId) },
      });
    }
    return { data: { results, loop: loop('done') } };
  },
});
