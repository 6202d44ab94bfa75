/**
 * Issue 19 §6: validation messages are sentences a person reads ("Add at least one item to
 * “Conditions”."), naming the field in words, never zod's `expected array, received undefined`.
 */
import { describe, expect, it } from 'vitest';
import { checkNodeParams } from './check-params';
import { findNodeType, latestNodeTypes } from './registry';

const zodWords = /expected|received|Invalid input|Too small|Too big|Unrecognized key/i;

describe('parameter issues are sentences naming the field', () => {
  it.each(latestNodeTypes().map((definition) => [definition.type, definition] as const))('%s with nothing filled in: no zod wording', (_type, definition) => {
    for (const issue of checkNodeParams(definition, {})) {
      expect(issue.message, issue.path).not.toMatch(zodWords);
      expect(issue.message).toMatch(/\.$/);
      expect(issue.rule?.kind).toBeDefined();
    }
  });

  it.each([
    ['logic.if', {}, 'params.conditions', 'Add at least one item to “Conditions”.', { kind: 'too_few', minimum: 1 }],
    ['logic.if', { conditions: [] }, 'params.conditions', 'Add at least one item to “Conditions”.', { kind: 'too_few', minimum: 1 }],
    ['logic.if', { conditions: [{ left: 'a', operator: 'resembles' }] }, 'params.conditions[0].operator', 'Conditions, item 1: Choose one of the options for “Operator”.', { kind: 'not_an_option' }],
    ['http.request', {}, 'params.url', 'Fill in “Url”.', { kind: 'required' }],
    ['http.request', { url: 'https://a.example', maxResponseBytes: 'big' }, 'params.maxResponseBytes', '“Max response bytes” must be a number.', { kind: 'wrong_type', expected: 'number' }],
    ['http.request', { url: 'https://a.example', maxResponseBytes: 0 }, 'params.maxResponseBytes', '“Max response bytes” must be at least 1.', { kind: 'too_low', minimum: 1 }],
    ['http.request', { url: 'https://a.example', extra: 1 }, 'params', 'This node has fields it does not take: “extra”.', { kind: 'unknown_fields', keys: ['extra'] }],
  ])('%s %j: %s says “%s”', (type, params, path, message, rule) => {
    const issues = checkNodeParams(findNodeType(type, 1)!, params);
    const issue = issues.find((item) => item.path === path);
    expect(issue, JSON.stringify(issues)).toBeDefined();
    expect(issue!.message).toBe(message);
    expect(issue!.rule).toMatchObject(rule);
  });
});
