import { describe, expect, it } from 'vitest';
import { prototypeNames } from '../../testing/prototype-names';
import { expressionBudget, maskText, resolveParams, wholeExpression } from '.';

const scope = {
  trigger: { subject: 'Invoice 42', from: { email: 'ann@example.com' }, amount: 12.5 },
  input: { items: [1, 2, 3], name: 'Ann' },
  nodes: { set1: { total: 7 } },
  execution: { id: 'e1', workflowId: 'w1', simulated: true },
  now: '2026-03-01T10:00:00.000Z',
};

async function resolve(value: unknown) {
  return (await resolveParams({ value }, scope)).value as { value: unknown };
}

describe('expressions', () => {
  it.each([
    ['{{ trigger.subject }}', 'Invoice 42'],
    ['  {{ trigger.amount * 2 }}  ', 25],
    ['{{ input.items }}', [1, 2, 3]],
    ['{{ $sum(input.items) }}', 6],
    ['{{ nodes.set1.total }}', 7],
    ['{{ execution.simulated }}', true],
    ['{{ now }}', '2026-03-01T10:00:00.000Z'],
    ['{{ trigger.missing }}', null],
    ['Hello {{ input.name }}, total {{ nodes.set1.total }}', 'Hello Ann, total 7'],
    ['list: {{ input.items }}', 'list: [1,2,3]'],
    ['none {{ trigger.missing }}!', 'none !'],
    ['no expression', 'no expression'],
    ['{{ $match(trigger.subject, /\\d+/).match }}', '42'],
  ])('%s → %j', async (text, expected) => {
    expect((await resolve(text)).value).toEqual(expected);
  });

  it('walks arrays and objects deeply and keeps other values', async () => {
    const { value } = await resolveParams({ a: [{ b: '{{ input.name }}' }, 3, null, true], c: { d: { e: '{{ input.items[0] }}' } } }, scope);
    expect(value).toEqual({ a: [{ b: 'Ann' }, 3, null, true], c: { d: { e: 1 } } });
  });

  it.each(prototypeNames.map((name) => [name]))('keeps a %s key as plain data without polluting', async (name) => {
    const params = JSON.parse(`{"${name}": {"polluted": "{{ input.name }}"}}`) as Record<string, unknown>;
    const { value } = await resolveParams(params, scope);
    expect(Object.hasOwn(value as object, name)).toBe(true);
    expect(((value as Record<string, { polluted: string }>)[name]).polluted).toBe('Ann');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it.each(['{{ trigger.constructor }}', '{{ trigger.__proto__ }}', '{{ input.items.constructor }}', '{{ trigger.constructor.constructor("return process")() }}'])(
    '%s reaches nothing of the host',
    async (text) => {
      const outcome = await resolve(text).then(
        (resolved) => resolved.value,
        (error: { code: string }) => error.code,
      );
      expect([null, 'expression_error']).toContain(outcome);
    },
  );

  it.each([
    ['a syntax error', '{{ trigger. }}'],
    ['an unknown function', '{{ $nope(1) }}'],
    ['an endless recursion', '{{ ($f := function($n){ $f($n + 1) }; $f(0)) }}'],
    ['a slow computation', '{{ ($f := function($n){ $n < 2 ? $n : $f($n-1) + $f($n-2) }; $f(40)) }}'],
    ['a huge sequence', '{{ [1..10000000] }}'],
    ['a result over 1 MB', '{{ $join([1..2000].("' + 'x'.repeat(600) + '")) }}'],
    ['an expression over 5,000 characters', `{{ ${'1+'.repeat(2_600)}1 }}`],
    ['a back-reference regex', '{{ $match("aa", /(a)\\1/) }}'],
  ])('%s fails expression_error (permanent) naming the path', async (_what, text) => {
    await expect(resolveParams({ fields: [{ value: text }] }, scope)).rejects.toMatchObject({
      code: 'expression_error',
      kind: 'permanent',
      details: { path: 'params.fields[0].value' },
      message: expect.stringContaining('params.fields[0].value'),
    });
  });

  it('the budgets are the documented ones', () => {
    expect(expressionBudget).toMatchObject({ maxLength: 5_000, timeoutMs: 250, maxResultBytes: 1_000_000 });
  });

  it('masks secret-looking values in the stored input, not in the params run with', async () => {
    const params = {
      url: 'https://x.example',
      password: '{{ input.name }}',
      apiKey: 'k',
      'api-key': 'k',
      nested: { Authorization: 'Bearer t', refreshToken: 't', clientSecret: 's' },
      headers: [
        { name: 'Authorization', value: 'Bearer abc' },
        { name: 'X-Trace', value: 'keep' },
      ],
    };
    const { value, masked } = await resolveParams(params, scope);
    expect(value).toMatchObject({ password: 'Ann', headers: [{ value: 'Bearer abc' }, { value: 'keep' }] });
    expect(masked).toEqual({
      url: 'https://x.example',
      password: maskText,
      apiKey: maskText,
      'api-key': maskText,
      nested: { Authorization: maskText, refreshToken: maskText, clientSecret: maskText },
      headers: [
        { name: 'Authorization', value: maskText },
        { name: 'X-Trace', value: 'keep' },
      ],
    });
  });

  it('tells a whole expression from interpolation', () => {
    expect(wholeExpression('{{ a }}')).toBe('a');
    expect(wholeExpression('{{ a }} {{ b }}')).toBeNull();
    expect(wholeExpression('x {{ a }}')).toBeNull();
  });
});
