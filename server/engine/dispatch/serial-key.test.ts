/** The key a run starts under when its workflow runs one at a time per key (issue 24 §3). */
import { describe, expect, it } from 'vitest';
import type { OneRunAtATime } from '../contract/one-run-at-a-time';
import { serialKeyExpressionProblem, serialKeyOf } from './serial-key';

const by = (kind: OneRunAtATime['by'], expression: string | null = null): OneRunAtATime => ({ by: kind, expression, coalesceSeconds: 0 });
const mail = { threadId: 't-1', messageIdHeader: '<a@b>', fromEmail: ' Ana@Client.TEST ' };

describe('serialKeyOf', () => {
  it('no setting: no key', async () => {
    expect(await serialKeyOf(null, {}, mail)).toBeNull();
  });

  it('thread: the mirror’s conversation; an unthreaded message is its own conversation; a webhook has none', async () => {
    expect(await serialKeyOf(by('thread'), {}, mail)).toBe('thread:t-1');
    expect(await serialKeyOf(by('thread'), {}, { ...mail, threadId: null })).toBe('message:<a@b>');
    expect(await serialKeyOf(by('thread'), {}, { ...mail, threadId: null, messageIdHeader: null })).toBeNull();
    expect(await serialKeyOf(by('thread'), { subject: 'x' })).toBeNull();
  });

  it('sender: the address trimmed and in lower case; none without an address', async () => {
    expect(await serialKeyOf(by('sender'), {}, mail)).toBe('sender:ana@client.test');
    expect(await serialKeyOf(by('sender'), {}, { ...mail, fromEmail: null })).toBeNull();
    expect(await serialKeyOf(by('sender'), {})).toBeNull();
  });

  it('expression: the value over the trigger data, numbers and text alike; pieces among text interpolate', async () => {
    expect(await serialKeyOf(by('expression', '{{ trigger.order.id }}'), { order: { id: 1042 } })).toBe('expr:1042');
    expect(await serialKeyOf(by('expression', '{{ trigger.order.id }}'), { order: { id: '1042' } })).toBe('expr:1042');
    expect(await serialKeyOf(by('expression', 'order-{{ trigger.order.id }}'), { order: { id: 7 } })).toBe('expr:order-7');
    expect(await serialKeyOf(by('expression', '{{ trigger.a & "/" & trigger.b }}'), { a: 'x', b: 'y' })).toBe('expr:x/y');
  });

  it('expression: an empty or missing value, or one the expression cannot compute, gives no key (the run is not held)', async () => {
    expect(await serialKeyOf(by('expression', '{{ trigger.order.id }}'), {})).toBeNull();
    expect(await serialKeyOf(by('expression', '{{ trigger.order.id }}'), { order: { id: '  ' } })).toBeNull();
    expect(await serialKeyOf(by('expression', '{{ trigger.a - 1 }}'), { a: 'text' })).toBeNull();
  });

  it('expression: a stored expression that is not inline is refused at run time too (never evaluated on this thread)', async () => {
    expect(await serialKeyOf(by('expression', '{{ $lowercase(trigger.a) }}'), { a: 'X' })).toBeNull();
  });

  it('long values are stored as their SHA-256', async () => {
    const key = await serialKeyOf(by('expression', '{{ trigger.note }}'), { note: 'n'.repeat(5_000) });
    expect(key).toMatch(/^expr:sha256:[0-9a-f]{64}$/);
    expect(await serialKeyOf(by('expression', '{{ trigger.note }}'), { note: 'n'.repeat(5_000) })).toBe(key);
  });

  it('a hostile trigger (prototype-named fields) is plain data', async () => {
    const data = JSON.parse('{"__proto__": {"id": "polluted"}, "constructor": {"id": "c"}}') as unknown;
    expect(await serialKeyOf(by('expression', '{{ trigger.constructor.id }}'), data)).toBe('expr:c');
    expect(({} as Record<string, unknown>).id).toBeUndefined();
  });
});

describe('serialKeyExpressionProblem', () => {
  it.each(['{{ trigger.orderId }}', 'order-{{ trigger.order.id }}', '{{ trigger.a & trigger.b }}', '{{ trigger.vip ? "vip" : trigger.from.email }}'])('accepts %s', (text) => {
    expect(serialKeyExpressionProblem(text)).toBeNull();
  });

  it.each([
    ['trigger.orderId', /between \{\{ and \}\}/],
    ['{{ trigger.( }}', /./],
    ['{{ $lowercase(trigger.a) }}', /no function calls/],
    ['{{ trigger.items[price > 1] }}', /no function calls/],
    ['{{ [1..100000] }}', /no function calls/],
  ])('refuses %s', (text, reason) => {
    expect(serialKeyExpressionProblem(text)?.message).toMatch(reason);
  });
});
