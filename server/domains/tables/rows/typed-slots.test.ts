import { describe, expect, it } from 'vitest';
import type { Column } from '../schemas';
import { assignSlots, numberSlots, slotsPerKind, slotValuesOf, textSlots } from './typed-slots';

const column = (key: string, type: Column['type']): Column => ({ key, label: key, type, isKey: false, required: false, options: [], width: null, description: null });

describe('assignSlots', () => {
  it('gives number columns n slots and every other type t slots, lowest first', () => {
    const columns = [column('name', 'text'), column('score', 'number'), column('day', 'date'), column('amount', 'number'), column('on', 'boolean')];
    expect(assignSlots(columns, {})).toEqual({ name: 't1', score: 'n1', day: 't2', amount: 'n2', on: 't3' });
  });

  it('keeps the slot of a column that keeps its kind, whatever the order', () => {
    const current = { name: 't1', score: 'n1', day: 't2' };
    expect(assignSlots([column('day', 'datetime'), column('score', 'number'), column('name', 'email')], current)).toEqual(current);
  });

  it('moves a column whose kind changes, and reuses slots freed by removed columns', () => {
    const current = { name: 't1', score: 'n1', day: 't2' };
    // name was removed (t1 is free again), score becomes text: it takes t1, the new note t3.
    const next = assignSlots([column('score', 'text'), column('day', 'date'), column('note', 'text')], current);
    expect(next).toEqual({ score: 't1', day: 't2', note: 't3' });
  });

  it('leaves a column without a slot when its kind has none left', () => {
    const columns = Array.from({ length: slotsPerKind + 2 }, (_, index) => column(`c${index}`, 'number'));
    const slots = assignSlots(columns, {});
    expect(Object.values(slots)).toEqual(numberSlots);
    expect(slots[`c${slotsPerKind}`]).toBeUndefined();
    expect(textSlots).toHaveLength(slotsPerKind);
  });
});

describe('slotValuesOf', () => {
  const columns = [column('name', 'text'), column('mail', 'email'), column('plan', 'select'), column('score', 'number'), column('on', 'boolean'), column('day', 'date')];
  const slots = assignSlots(columns, {});

  it('holds numbers as numbers, text and email lower-cased (every script), other types as stored', () => {
    const values = slotValuesOf(columns, slots, { name: 'Émile ÇA', mail: 'Ann@Example.COM', plan: 'Pro', score: 2.5, on: false, day: '2024-01-31' });
    expect(values).toEqual({ [slots.name]: 'émile ça', [slots.mail]: 'ann@example.com', [slots.plan]: 'Pro', [slots.score]: 2.5, [slots.on]: 'false', [slots.day]: '2024-01-31' });
  });

  it('leaves absent cells (and a non-number in a number column) out: their slots are NULL', () => {
    expect(slotValuesOf(columns, slots, { name: 'a', score: 'n/a' as never })).toEqual({ [slots.name]: 'a' });
  });

  it('is empty for a table without slots', () => {
    expect(slotValuesOf(columns, null, { name: 'a' })).toEqual({});
  });
});
