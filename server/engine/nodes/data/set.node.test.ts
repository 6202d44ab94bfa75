import { describe, expect, it } from 'vitest';
import { prototypeNames } from '../../../testing/prototype-names';
import { runNode } from '../testing';
import { setNode } from './set.node';

describe('data.set', () => {
  it.each([
    [true, [{ name: 'b', value: 2 }], { a: 1, b: 2 }],
    [false, [{ name: 'b', value: 2 }], { b: 2 }],
    [true, [{ name: 'customer.name', value: 'Ann' }], { a: 1, customer: { name: 'Ann' } }],
    [true, [{ name: 'a.b', value: true }], { a: { b: true } }],
  ])('keepInput %s with %j', async (keepInput, fields, data) => {
    expect(await runNode(setNode, { params: { keepInput, fields }, input: { main: { a: 1 } } })).toEqual({ data });
  });

  it('does not change the input it copied', async () => {
    const main = { a: { b: 1 } };
    await runNode(setNode, { params: { fields: [{ name: 'a.b', value: 2 }] }, input: { main } });
    expect(main).toEqual({ a: { b: 1 } });
  });

  it.each(['__proto__', 'constructor', 'x.prototype', 'a.__proto__.polluted'])('refuses the field name %s', (name) => {
    expect(setNode.params.safeParse({ fields: [{ name, value: 1 }] }).success).toBe(false);
  });

  it('keeps prototype-named keys of values as plain data', async () => {
    for (const name of prototypeNames) {
      const value = JSON.parse(`{"${name}": {"polluted": true}}`) as unknown;
      const result = (await runNode(setNode, { params: { fields: [{ name: 'v', value }] } })) as { data: Record<string, unknown> };
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.hasOwn(result.data.v as object, name)).toBe(true);
    }
  });
});
