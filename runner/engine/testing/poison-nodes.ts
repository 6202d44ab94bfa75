/**
 * Poison node types for the crash-loop test (`test.poison*`, registered only under vitest): each kills
 * the process that runs it, as a runaway the sandbox missed or a native crash would. Loaded into real
 * runner processes with `--import` (runner/testing/runner-processes.ts) and armed by
 * MAILFLOW_TEST_POISON_ARMED=1 there only, so a test process that merely declares the graphs never dies.
 *
 * - `test.poison`: no outside effect; kills its process when it executes.
 * - `test.poison_params`: acts on a third party; kills its process while its parameters are checked,
 *   before the executor is called (the attempt must already be written by then).
 */
import { z } from 'zod';
import { defineNode } from '../../../server/engine/contract/define-node';
import { registerFixtureNodeTypes } from '../../../server/engine/nodes/registry';

/** Says which poison it is on stderr first, so the test can tell each runner death's cause. */
function die(type: string): void {
  if (process.env.MAILFLOW_TEST_POISON_ARMED !== '1') return;
  process.stderr.write(`poison: ${type}\n`);
  process.kill(process.pid, 'SIGKILL');
}

export const poisonNode = defineNode({
  type: 'test.poison',
  version: 1,
  category: 'data',
  label: { en: 'test.poison', fr: 'test.poison' },
  description: { en: 'Crash-loop test fixture.', fr: 'Appareil du test des crashs en boucle.' },
  params: z.strictObject({}),
  outputs: ['main'],
  effect: 'none',
  async execute() {
    die('test.poison');
    return { data: { survived: true } };
  },
});

export const poisonParamsNode = defineNode({
  type: 'test.poison_params',
  version: 1,
  category: 'http',
  label: { en: 'test.poison_params', fr: 'test.poison_params' },
  description: { en: 'Crash-loop test fixture.', fr: 'Appareil du test des crashs en boucle.' },
  params: z.strictObject({}).transform((value) => {
    die('test.poison_params');
    return value;
  }),
  outputs: ['main'],
  effect: 'external',
  async execute() {
    return { data: { survived: true } };
  },
});

registerFixtureNodeTypes([poisonNode, poisonParamsNode]);
