/** Shared checks of the table write node tests. Not a node module. */
import { expect, vi } from 'vitest';
import type { NodeDefinition } from '../../contract/define-node';
import { fakeCapabilities, runNodeWithEffects } from '../testing';

export async function checkTableWrite(definition: NodeDefinition, op: string, params: Record<string, unknown>, expected: Record<string, unknown>) {
  const capabilities = fakeCapabilities();
  const { result, effects } = await runNodeWithEffects(definition, { params, capabilities });
  expect(capabilities.tables.write).toHaveBeenCalledWith({ effectKey: op, op, ...expected });
  expect(result).toMatchObject({ data: { row: { id: 'row-1' }, replayed: false } });
  // The effect is recorded by the engine's keyed effect (once), not returned again by the node.
  expect(effects).toEqual([{ key: op, kind: `tables.${op}` }]);
  expect(result).not.toHaveProperty('effects');
  expect(definition.effect).toBe('keyed');

  const simulated = fakeCapabilities({ tables: { write: vi.fn() } });
  const dry = await runNodeWithEffects(definition, { params, capabilities: simulated, simulated: true });
  expect(simulated.tables.write).not.toHaveBeenCalled();
  expect(dry.effects).toEqual([{ key: op, kind: `tables.${op}` }]);

  const polluted = JSON.parse('{"__proto__": "x"}') as Record<string, unknown>;
  expect(definition.params.safeParse({ ...params, cells: polluted }).success).toBe(false);
  expect(definition.params.safeParse({ ...params, cells: { a: { nested: 1 } } }).success).toBe(false);
}
