/**
 * The size bounds inside JSONata (limits.ts), on this thread: the same functions the browser preview
 * and the sandbox threads run. Issue 18: `&` doublings made strings of gigabytes that one built-in
 * then walked for seconds.
 */
import { describe, expect, it } from 'vitest';
import { resolveParams } from '.';

const scope = {
  trigger: { subject: 'Invoice 42', body: 'x'.repeat(600_000) },
  input: null,
  nodes: {},
  execution: { id: 'e1', workflowId: 'w1', simulated: false },
  now: '2026-03-01T10:00:00.000Z',
};

const doubling = (times: number, then = '$length') => `($f := function($s,$n){ $n = 0 ? $s : $f($s & $s, $n - 1) }; ${then}($f('abcdefgh', ${times})))`;

async function outcomeOf(expression: string): Promise<unknown> {
  const { value } = await resolveParams({ fields: [{ value: `{{ ${expression} }}` }] }, scope);
  return (value as { fields: { value: unknown }[] }).fields[0].value;
}

const refused = (message: RegExp | string = /1,000,000 characters/) => ({
  code: 'expression_error',
  kind: 'permanent',
  details: { path: 'params.fields[0].value' },
  message: expect.stringMatching(typeof message === 'string' ? new RegExp(message) : message),
});

describe('strings an expression builds stop at 1,000,000 characters', () => {
  it.each([
    ['22 doublings with `&` then $length (the issue: 4.3 s, 1 GB)', doubling(22)],
    ['23 doublings then $length', doubling(23)],
    ['24 doublings then $length', doubling(24)],
    ['30 doublings then $substring', doubling(30, '$substring')],
    ['doublings returned as they are', doubling(22, '')],
    ['doublings run by $eval', `$eval("${doubling(22).replaceAll("'", '\\"')}")`],
    ['$pad to a huge width', '$length($pad("x", 100000000))'],
    ['$pad with a long padding', `$length($pad("x", 600000, "${'ab'.repeat(5)}"))`],
    ['$join of long strings', '$length($join([trigger.body, trigger.body]))'],
    ['$string of large data', '$length($string({"a": trigger.body, "b": trigger.body}))'],
    ['`&` with large data', '$length("" & [trigger.body, trigger.body])'],
    ['$uppercase growing a string (ß → SS)', `$length($uppercase($pad("", 700000, "ß")))`],
  ])('%s fails expression_error naming the path', async (_what, expression) => {
    await expect(outcomeOf(expression)).rejects.toMatchObject(refused());
  });

  it('a string of exactly the bound is still built', async () => {
    expect(await outcomeOf('$length($pad("", 1000000, "x"))')).toBe(1_000_000);
    expect(await outcomeOf(doubling(16))).toBe(8 * 2 ** 16);
  });
});

describe('other bounds inside built-ins', () => {
  it.each([
    ['$fromMillis', '$length($fromMillis(0, "[Y,9999999]"))'],
    ['$now', '$length($now("[Y,9999999]"))'],
    ['$formatInteger', '$length($formatInteger(1, "[Y,99999999]"))'],
  ])('%s refuses a picture padding past 1,000,000', async (_what, expression) => {
    await expect(outcomeOf(expression)).rejects.toMatchObject(refused(/format picture/));
  });

  it('$eval nests at most 4 levels and takes at most 5,000 characters', async () => {
    const nested = (levels: number): string => (levels === 0 ? '1 + 1' : `$eval(${JSON.stringify(nested(levels - 1))})`);
    expect(await outcomeOf(nested(4))).toBe(2);
    await expect(outcomeOf(nested(5))).rejects.toMatchObject(refused(/nests deeper than 4/));
    await expect(outcomeOf(`$eval("1" & $pad("", 6000, " "))`)).rejects.toMatchObject(refused(/longer than 5,000 characters/));
  });

  it('a failure quotes at most 500 characters of what JSONata said', async () => {
    const failure = await outcomeOf('$number($substring(trigger.body, 0, 100000))').then(
      () => null,
      (error: Error) => error,
    );
    expect(failure).toMatchObject({ code: 'expression_error' });
    expect(failure!.message.length).toBeLessThan(700);
  });
});

describe('what members write every day still works', () => {
  it.each([
    ['"ab" & "cd"', 'abcd'],
    ['"n" & 1', 'n1'],
    ['"x" & {"a": 1}', 'x{"a":1}'],
    ['trigger.missing & "z"', 'z'],
    ['"Re: " & trigger.subject', 'Re: Invoice 42'],
    ['$pad("7", -3, "0")', '007'],
    ['$join(["a", "b"], ", ")', 'a, b'],
    ['$string({"a": [1, 2]})', '{"a":[1,2]}'],
    ['($x := 5; $eval("$x * 2"))', 10],
    ['$eval("[1,2]")', [1, 2]],
    ['$uppercase($substringBefore(trigger.subject, " "))', 'INVOICE'],
    ['$replace(trigger.subject, /\\d+/, "#$0")', 'Invoice #42'],
    ['$fromMillis(0, "[Y0001]-[M01]")', '1970-01'],
    ['$formatNumber(1234.5, "#,##0.00")', '1,234.50'],
    ['$length($now()) > 0', true],
    ['[1..3].($string($) & "!")', ['1!', '2!', '3!']],
  ])('%s → %j', async (expression, expected) => {
    expect(await outcomeOf(expression)).toEqual(expected);
  });
});

describe('a compiled expression is kept and shared by evaluations (index.ts), with every bound still its own', () => {
  it('a bound `&` refuses again on the second evaluation of the same expression (its tree was rewritten by the first)', async () => {
    for (let round = 0; round < 2; round += 1) {
      await expect(outcomeOf(doubling(22)), `round ${round + 1}`).rejects.toMatchObject(refused());
    }
    expect(await outcomeOf(`"a" & "b"`)).toBe('ab');
    expect(await outcomeOf(`"a" & "b"`)).toBe('ab');
  });

  it('evaluations of one expression at once each read their own scope', async () => {
    const source = '{{ trigger.subject & " for " & input.name }}';
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        resolveParams({ text: source }, { ...scope, trigger: { subject: `Invoice ${index}`, body: '' }, input: { name: `client ${index}` } }),
      ),
    );
    expect(answers.map(({ value }) => (value as { text: string }).text)).toEqual(Array.from({ length: 20 }, (_, index) => `Invoice ${index} for client ${index}`));
  });

  it('$millis and $now read the time of their own evaluation', async () => {
    const before = Date.now();
    const answer = (await outcomeOf('{"millis": $millis(), "now": $toMillis($now())}')) as { millis: number; now: number };
    expect(answer.millis).toBe(answer.now);
    expect(answer.millis).toBeGreaterThanOrEqual(before);
    expect(answer.millis).toBeLessThanOrEqual(Date.now());
  });

  it('an expression that does not compile is refused every time, naming the path', async () => {
    for (let round = 0; round < 2; round += 1) {
      await expect(outcomeOf('1 +')).rejects.toMatchObject({ code: 'expression_error', details: { path: 'params.fields[0].value' } });
    }
  });

  it('long distinct expressions (more characters than are kept) each still evaluate to their own value, twice', async () => {
    const long = (index: number) => `$length("${'x'.repeat(4_900)}") + ${index}`;
    for (let round = 0; round < 2; round += 1) {
      const values = await Promise.all(Array.from({ length: 30 }, (_, index) => outcomeOf(long(index))));
      expect(values).toEqual(Array.from({ length: 30 }, (_, index) => 4_900 + index));
    }
  });

  it('many distinct expressions (more than are kept) each still evaluate to their own value', async () => {
    const values = await Promise.all(Array.from({ length: 260 }, (_, index) => outcomeOf(`${index} + 1`)));
    expect(values).toEqual(Array.from({ length: 260 }, (_, index) => index + 1));
    expect(await outcomeOf('0 + 1')).toBe(1);
  });
});
