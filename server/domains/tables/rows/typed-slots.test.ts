import { describe, expect, it } from 'vitest';
import type { Column } from '../schemas';
import { assignSlots, numberSlots, parseTypedSlots, slotSql, slotsPerKind, slotValuesOf, storedTypedSlots, textSlots, type TypedSlots } from './typed-slots';

const none: TypedSlots = new Map();
const slotMap = (entries: Record<string, string>): TypedSlots => new Map(Object.entries(entries));

const column = (key: string, type: Column['type']): Column => ({ key, label: key, type, isKey: false, required: false, options: [], width: null, description: null });

describe('assignSlots', () => {
  it('gives number columns n slots and every other type t slots, lowest first', () => {
    const columns = [column('name', 'text'), column('score', 'number'), column('day', 'date'), column('amount', 'number'), column('on', 'boolean')];
    expect(assignSlots(columns, none)).toEqual(slotMap({ name: 't1', score: 'n1', day: 't2', amount: 'n2', on: 't3' }));
  });

  it('keeps the slot of a column that keeps its kind, whatever the order', () => {
    const current = slotMap({ name: 't1', score: 'n1', day: 't2' });
    expect(assignSlots([column('day', 'datetime'), column('score', 'number'), column('name', 'email')], current)).toEqual(current);
  });

  it('moves a column whose kind changes, and reuses slots freed by removed columns', () => {
    const current = slotMap({ name: 't1', score: 'n1', day: 't2' });
    // name was removed (t1 is free again), score becomes text: it takes t1, the new note t3.
    const next = assignSlots([column('score', 'text'), column('day', 'date'), column('note', 'text')], current);
    expect(next).toEqual(slotMap({ score: 't1', day: 't2', note: 't3' }));
  });

  it('leaves a column without a slot when its kind has none left', () => {
    const columns = Array.from({ length: slotsPerKind + 2 }, (_, index) => column(`c${index}`, 'number'));
    const slots = assignSlots(columns, none);
    expect([...slots.values()]).toEqual(numberSlots);
    expect(slots.get(`c${slotsPerKind}`)).toBeUndefined();
    expect(textSlots).toHaveLength(slotsPerKind);
  });
});

describe('slotValuesOf', () => {
  const columns = [column('name', 'text'), column('mail', 'email'), column('plan', 'select'), column('score', 'number'), column('on', 'boolean'), column('day', 'date')];
  const slots = Object.fromEntries(assignSlots(columns, none));

  it('holds numbers as numbers, text and email lower-cased (every script), other types as stored', () => {
    const values = slotValuesOf(columns, slotMap(slots), { name: 'Émile ÇA', mail: 'Ann@Example.COM', plan: 'Pro', score: 2.5, on: false, day: '2024-01-31' });
    expect(values).toEqual({ [slots.name]: 'émile ça', [slots.mail]: 'ann@example.com', [slots.plan]: 'Pro', [slots.score]: 2.5, [slots.on]: 'false', [slots.day]: '2024-01-31' });
  });

  it('leaves absent cells (and a non-number in a number column) out: their slots are NULL', () => {
    expect(slotValuesOf(columns, slotMap(slots), { name: 'a', score: 'n/a' as never })).toEqual({ [slots.name]: 'a' });
  });

  it('is empty for a table without slots', () => {
    expect(slotValuesOf(columns, null, { name: 'a' })).toEqual({});
  });
});

describe('slots of columns named after Object.prototype members', () => {
  const columns = [column('constructor', 'text'), column('prototype', 'number')];

  it('are assigned, stored and read back like any other', () => {
    const slots = assignSlots(columns, none);
    expect(slots).toEqual(slotMap({ constructor: 't1', prototype: 'n1' }));
    const stored = JSON.parse(JSON.stringify(storedTypedSlots(slots)));
    expect(parseTypedSlots(stored)).toEqual(slots);
    expect(slotValuesOf(columns, slots, { prototype: 2 })).toEqual({ n1: 2 });
  });

  it('an inherited member is never a slot, and only n1…t50 enter SQL', () => {
    expect(parseTypedSlots({})!.get('constructor')).toBeUndefined();
    expect(parseTypedSlots({ constructor: 'function Object() { [native code] }' })).toBeNull();
    expect(() => slotSql('function Object() { [native code] }')).toThrow();
    expect(slotSql('t50')).toBe('t50');
  });
});
