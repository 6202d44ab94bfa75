/**
 * The scope a step sends to its sandbox thread (scope-needs.ts): cut down to what the expressions can
 * read, and never less. The second half checks the "never less" on a corpus: each expression gives
 * the same value, or the same failure, against the cut scope as against the whole one.
 */
import { describe, expect, it } from 'vitest';
import { expressionSites, resolveParams, type ExpressionScope } from '..';
import { createRng } from '../../../testing/fuzz/prng';
import { hostileExpressions } from '../../../testing/fuzz/hostile-expressions';
import { runsInline, scopeNeededBy } from './scope-needs';

const scope: ExpressionScope = {
  trigger: { subject: 'Invoice 42', items: [{ price: 3, name: 'a' }, { price: 9, name: 'b' }], nodes: 'shadow' },
  input: { name: 'Ann', amount: 12 },
  nodes: { set1: { total: 7 }, 'set 2': { total: 8 }, lookup: { row: { email: 'ann@example.com' } }, big: { text: 'x'.repeat(1_000) } },
  execution: { id: 'e1', workflowId: 'w1', simulated: false },
  now: '2026-03-01T10:00:00.000Z',
};

const needed = (...texts: string[]) => scopeNeededBy(expressionSites({ values: texts }), scope);

describe('the scope a step sends to the sandbox', () => {
  it('Only the upstream nodes an expression names are sent', () => {
    expect(needed('{{ nodes.set1.total }}', 'Hi {{ nodes.`set 2`.total }}')).toEqual({ nodes: { set1: { total: 7 }, 'set 2': { total: 8 } }, execution: scope.execution, now: scope.now });
    expect(needed('{{ trigger.subject }}')).toEqual({ trigger: scope.trigger, execution: scope.execution, now: scope.now });
    expect(needed('{{ input.amount * 2 }} {{ $now() }}')).toEqual({ input: scope.input, execution: scope.execution, now: scope.now });
  });

  it.each([
    ['`nodes` as a whole', '{{ $keys(nodes) }}'],
    ['a wildcard over nodes', '{{ nodes.*.total }}'],
    ['a filter on nodes', '{{ nodes[total > 1] }}'],
    ['a looked-up node', '{{ $lookup(nodes, "se" & "t1") }}'],
    ['nodes through a variable', '{{ ($n := nodes; $n.set1) }}'],
  ])('Every node is sent when %s is read', (_what, text) => {
    expect(needed(text).nodes).toEqual(scope.nodes);
  });

  it.each([
    ['$', '{{ $.trigger }}'],
    ['$$', '{{ [1].($$.input) }}'],
    ['**', '{{ **.total }}'],
    ['%', '{{ trigger.items.%.subject }}'],
    ['$eval', '{{ $eval("input") }}'],
    ['a built-in on the context', '{{ $string() }}'],
    ['$lookup on the context', '{{ $lookup("input") }}'],
    ['a built-in passed as a value', '{{ ($s := $keys; $s()) }}'],
    ['a partial application', '{{ $lookup(?, "input")($$) }}'],
    ['something that does not parse', '{{ trigger. }}'],
  ])('The whole scope is sent when an expression uses %s', (_what, text) => {
    expect(needed(text)).toBe(scope);
  });
});

describe('never less than the expressions read', () => {
  const everyday = [
    'trigger.subject',
    'trigger.items[price > 5].name',
    '$sum(trigger.items.price)',
    'nodes.set1.total + nodes.`set 2`.total',
    'nodes.lookup.row.email',
    '$keys(nodes)',
    '$count(nodes.*)',
    '$lookup(nodes, "set1").total',
    '{"who": input.name, "n": $count(trigger.items)}',
    'trigger.nodes',
    '$map(trigger.items, function($v){ $v.price * input.amount })',
    'trigger.items#$i[$i = 1].name',
    '$string(input)',
    '$each(input, function($v, $k){ $k })',
    '$sift(nodes, function($v){ $exists($v.total) })',
    '$merge([input, {"x": 1}])',
    'input ~> $keys()',
    '$string()',
    '$keys()',
    '$.input.name',
    '$$.nodes.set1',
    '**.email',
    '$eval("nodes.set1.total")',
    '($f := function(){ trigger.subject }; $f())',
    'execution.id & now',
    'missing.field',
  ];

  async function outcome(text: string, against: Partial<ExpressionScope>) {
    return resolveParams({ value: text }, against as ExpressionScope).then(
      ({ value }) => ({ value: (value as { value: unknown }).value }),
      (error: Error) => ({ error: error.message }),
    );
  }

  it.each(everyday.map((source) => [source]))('%s gives the same against the cut scope', async (source) => {
    const text = `{{ ${source} }}`;
    expect(await outcome(text, needed(text))).toEqual(await outcome(text, scope));
  });

  it('hostile expressions that end quickly give the same against the cut scope', async () => {
    const cheap = hostileExpressions(createRng(11), 42).filter(({ source }) => source.length < 300 && !/\d{5,}/.test(source));
    expect(cheap.length).toBeGreaterThan(3);
    for (const { source } of cheap) {
      const text = `{{ ${source} }}`;
      const whole = await outcome(text, scope);
      const cut = await outcome(text, needed(text));
      // Whether and where the clock stopped it depends on the machine, not on the scope.
      if ([whole, cut].some((result) => 'error' in result && result.error.includes('Evaluation timeout'))) continue;
      expect([source, cut]).toEqual([source, whole]);
    }
  });
});

describe('which steps are resolved inline (no thread)', () => {
  const inline = (source: string) => runsInline(expressionSites({ value: `{{ ${source} }}` }));

  it.each([
    'trigger.subject',
    'nodes.`set 2`.total * 2 + 1',
    '"Re: " & trigger.subject',
    'trigger.amount > 10 and input.name = "Ann" ? "big" : "small"',
    '{"a": trigger.subject, "b": [input.amount, -input.amount]}',
    'input.name in ["Ann", "Bob"]',
    'execution.id',
  ])('%s has no loop, call or recursion: inline', (source) => {
    expect(inline(source)).toBe(true);
  });

  it.each([
    ['a call', '$uppercase(trigger.subject)'],
    ['a filter', 'trigger.items[price > 5]'],
    ['an index', 'trigger.items[0]'],
    ['a range', '[1..10]'],
    ['a variable', '$x'],
    ['a block with bindings', '($a := 1; $a)'],
    ['a lambda', 'function($v){ $v }'],
    ['a wildcard', 'trigger.*'],
    ['a descendant', '**.total'],
    ['a chain', 'trigger ~> $string()'],
    ['a group-by', 'trigger.items{name: price}'],
    ['a sort', 'trigger.items^(price)'],
    ['a regex', '/a+/'],
    ['a long expression', Array.from({ length: 120 }, () => 'trigger.a').join(' + ')],
    ['something that does not parse', 'trigger.'],
  ])('%s goes to a thread', (_what, source) => {
    expect(inline(source)).toBe(false);
  });

  it('no hostile expression of the fuzz family is resolved inline', () => {
    for (const { source } of hostileExpressions(createRng(5), 70)) expect([source.slice(0, 100), inline(source)]).toEqual([source.slice(0, 100), false]);
  });
});
