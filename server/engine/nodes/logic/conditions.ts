/**
 * Conditions of the logic nodes (if, switch, filter): `{left, operator, right}` compared after the
 * expressions in them were resolved, combined with `all` or `any`. Not a node module.
 *
 * Case: text comparisons (equals/not_equals between texts, contains/not_contains, starts_with,
 * ends_with) ignore case unless the node's `caseSensitive` is on, as the mail trigger's filters do.
 * Version 1 of the nodes predates the setting and defaults to case-sensitive, so graphs written
 * before keep their behaviour; version 2 defaults to ignoring case. A pattern (matches_regex)
 * decides its own case (`(?i)` ignores it): rewriting a pattern's case would change its meaning.
 */
import { z } from 'zod';
import { safeRegexTest, regexBounds } from '../../expressions/safe-regex';
import { fail } from '../../contract/failures';

export const conditionOperators = [
  'equals',
  'not_equals',
  'contains',
  'not_contains',
  'starts_with',
  'ends_with',
  'gt',
  'gte',
  'lt',
  'lte',
  'is_empty',
  'is_not_empty',
  'matches_regex',
] as const;

export type ConditionOperator = (typeof conditionOperators)[number];

export const conditionSchema = z.strictObject({
  left: z.unknown().describe('The value to test, usually an expression such as `{{ trigger.subject }}`.'),
  operator: z.enum(conditionOperators).describe('How to compare `left` with `right`.'),
  right: z
    .unknown()
    .optional()
    .describe('The value to compare with (not used by is_empty / is_not_empty; a pattern of at most 200 characters for matches_regex).'),
});

export const conditionsSchema = z.array(conditionSchema).min(1).max(50).describe('The conditions (1-50).');
export const combineSchema = z.enum(['all', 'any']).default('all').describe('`all`: every condition must hold; `any`: at least one.');

export type Condition = z.output<typeof conditionSchema>;

/** The node-level setting; its default is what tells version 1 (true) from version 2 (false). */
export function caseSensitiveSchema(byDefault: boolean) {
  return z
    .boolean()
    .default(byDefault)
    .describe(
      byDefault
        ? 'Text comparisons respect upper and lower case (the default of this older version); off: “Invoice” equals “INVOICE”.'
        : 'Text comparisons respect upper and lower case; off (the default): “Invoice” equals “INVOICE”.',
    );
}

export interface CompareOptions {
  caseSensitive: boolean;
}

const exactCase: CompareOptions = { caseSensitive: true };

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

function asText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Lower case (locale-independent, like the trigger's filters) unless the comparison respects case. */
function folded(text: string, options: CompareOptions): string {
  return options.caseSensitive ? text : text.toLowerCase();
}

function sameValue(left: unknown, right: unknown, options: CompareOptions): boolean {
  if (typeof left === 'object' || typeof right === 'object') return JSON.stringify(left) === JSON.stringify(right);
  if (typeof left === 'string' && typeof right === 'string') return folded(left, options) === folded(right, options);
  if (typeof left === 'number' && typeof right === 'string' && right.trim() !== '') return left === Number(right);
  if (typeof right === 'number' && typeof left === 'string' && left.trim() !== '') return right === Number(left);
  return left === right;
}

/** Numbers compare as numbers, ISO dates as times, anything else as text. */
function compare(left: unknown, right: unknown): number | null {
  const number = (value: unknown) => (typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN);
  const a = number(left);
  const b = number(right);
  if (!Number.isNaN(a) && !Number.isNaN(b)) return a - b;
  if (typeof left === 'string' && typeof right === 'string') {
    const isoDate = /^\d{4}-\d{2}-\d{2}/;
    if (isoDate.test(left) && isoDate.test(right)) {
      const da = Date.parse(left);
      const db = Date.parse(right);
      if (!Number.isNaN(da) && !Number.isNaN(db)) return da - db;
    }
    return left < right ? -1 : left > right ? 1 : 0;
  }
  return null;
}

function contains(left: unknown, right: unknown, options: CompareOptions): boolean {
  if (Array.isArray(left)) return left.some((item) => sameValue(item, right, options));
  return folded(asText(left), options).includes(folded(asText(right), options));
}

export function testCondition(condition: Condition, path = 'params.conditions', options: CompareOptions = exactCase): boolean {
  const { left, right } = condition;
  switch (condition.operator) {
    case 'equals':
      return sameValue(left, right, options);
    case 'not_equals':
      return !sameValue(left, right, options);
    case 'contains':
      return contains(left, right, options);
    case 'not_contains':
      return !contains(left, right, options);
    case 'starts_with':
      return folded(asText(left), options).startsWith(folded(asText(right), options));
    case 'ends_with':
      return folded(asText(left), options).endsWith(folded(asText(right), options));
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const order = compare(left, right);
      if (order === null) return false;
      return condition.operator === 'gt' ? order > 0 : condition.operator === 'gte' ? order >= 0 : condition.operator === 'lt' ? order < 0 : order <= 0;
    }
    case 'is_empty':
      return isEmpty(left);
    case 'is_not_empty':
      return !isEmpty(left);
    case 'matches_regex': {
      const pattern = asText(right);
      if (pattern.length > regexBounds.maxPatternLength) {
        throw fail.permanent('invalid_parameter', { message: `${path}: the pattern is longer than ${regexBounds.maxPatternLength} characters.`, details: { path } });
      }
      try {
        return safeRegexTest(pattern, asText(left));
      } catch (error) {
        throw fail.permanent('invalid_parameter', { message: `${path}: ${(error as Error).message}`, details: { path } });
      }
    }
  }
}

export function testConditions(conditions: readonly Condition[], combine: 'all' | 'any', path = 'params.conditions', options: CompareOptions = exactCase): boolean {
  const results = (condition: Condition, index: number) => testCondition(condition, `${path}[${index}]`, options);
  return combine === 'all' ? conditions.every(results) : conditions.some(results);
}
