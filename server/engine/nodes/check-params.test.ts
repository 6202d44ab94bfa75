import { describe, expect, it } from 'vitest';
import { checkNodeParams } from './check-params';
import { httpRequestNode } from './http/request.node';
import { setNode } from './data/set.node';
import { loopNode } from './flow/loop.node';
import { waitNode } from './flow/wait.node';

describe('checkNodeParams', () => {
  it.each([
    ['valid params', httpRequestNode, { url: 'https://a.example' }, []],
    ['an expression where a number goes', httpRequestNode, { url: 'https://a.example', maxResponseBytes: '{{ 5 }}' }, []],
    ['an expression where an array goes', loopNode, { items: '{{ input.list }}', workflowId: '5b1d9a52-4f0c-4d55-9d5b-2f7d3f2a9e10' }, []],
    ['an expression where an object goes', httpRequestNode, { url: 'https://a.example', body: '{{ {"type": "none"} }}' }, []],
    ['an expression inside a list item', setNode, { fields: [{ name: 'a', value: '{{ trigger.x }}' }] }, []],
    ['an expression for a union member', waitNode, { mode: 'duration', amount: '{{ 3 }}', unit: 'hours' }, []],
  ])('%s: no issue', (_what, definition, params, issues) => {
    expect(checkNodeParams(definition, params)).toEqual(issues);
  });

  it.each([
    ['a missing field', httpRequestNode, {}, 'params.url'],
    ['a wrong type', httpRequestNode, { url: 'https://a.example', maxResponseBytes: 'big' }, 'params.maxResponseBytes'],
    ['an unknown key', httpRequestNode, { url: 'https://a.example', extra: 1 }, 'params'],
    ['an expression that does not compile', setNode, { fields: [{ name: 'a', value: '{{ trigger. }}' }] }, 'params.fields[0].value'],
    ['a broken piece among text', httpRequestNode, { url: 'https://a.example/{{ ( }}' }, 'params.url'],
    ['an empty expression', httpRequestNode, { url: '{{ }}' }, 'params.url'],
  ])('%s: an issue at its path', (_what, definition, params, path) => {
    const issues = checkNodeParams(definition, params);
    expect(issues.map((issue) => issue.path)).toContain(path);
    for (const issue of issues) expect(issue.message.length).toBeGreaterThan(0);
  });
});
