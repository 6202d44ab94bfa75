/**
 * A zod issue about a node's parameters said as a sentence a person reads ("Add at least one item to
 * “Conditions”.", never "expected array, received undefined"), naming the field in words, with the
 * rule behind it (`rule`) so a client can say the same in its own language (the builder does, in
 * English and French). Pure and browser-safe.
 */
import type { z } from 'zod';

/** What was wrong, in terms a client can put into words again (with the field's label). */
export type IssueRule =
  | { kind: 'required' }
  | { kind: 'wrong_type'; expected: 'text' | 'number' | 'yes_no' | 'list' | 'group' | 'value' }
  | { kind: 'too_few'; minimum: number }
  | { kind: 'too_many'; maximum: number }
  | { kind: 'too_short'; minimum: number }
  | { kind: 'too_long'; maximum: number }
  | { kind: 'too_low'; minimum: number }
  | { kind: 'too_high'; maximum: number }
  | { kind: 'not_an_option'; options: string[] }
  | { kind: 'bad_format'; format: string }
  | { kind: 'unknown_fields'; keys: string[] }
  | { kind: 'no_accepted_form' }
  | { kind: 'expression' }
  | { kind: 'other' };

/** `bodyText` → "Body text", `mailbox_id` → "Mailbox id" (the generated forms label fields the same way). */
export function fieldWords(key: string): string {
  const words = key
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : key;
}

const itemInEnglish = (owner: string, position: number) => `${owner}, item ${position}`;

/**
 * The field a path names in words: its last key, and the list items on the way ("Conditions, item 1:
 * “Left”"). The builder passes its dictionary's `item` to say the same in the member's language.
 */
export function fieldLabel(segments: readonly PropertyKey[], item: (owner: string, position: number) => string = itemInEnglish): { field: string; where: string } {
  let field = '';
  const where: string[] = [];
  segments.forEach((segment, index) => {
    if (typeof segment === 'number') {
      const owner = segments[index - 1];
      if (typeof owner === 'string') where.push(item(fieldWords(owner), segment + 1));
      return;
    }
    if (typeof segment === 'string' && index === segments.length - 1) field = fieldWords(segment);
  });
  // A path ending on a list item ("conditions[0]") names the item itself.
  if (!field && where.length) field = where.pop()!;
  return { field, where: where.join(' › ') };
}

const typeWords: Record<string, Extract<IssueRule, { kind: 'wrong_type' }>['expected']> = {
  string: 'text',
  number: 'number',
  int: 'number',
  bigint: 'number',
  boolean: 'yes_no',
  array: 'list',
  tuple: 'list',
  object: 'group',
  record: 'group',
};

const expectedText: Record<Extract<IssueRule, { kind: 'wrong_type' }>['expected'], string> = {
  text: 'text',
  number: 'a number',
  yes_no: 'yes or no',
  list: 'a list',
  group: 'a group of fields',
  value: 'another kind of value',
};

function ruleOf(issue: z.core.$ZodIssue, present: boolean): IssueRule {
  switch (issue.code) {
    case 'invalid_type': {
      // A missing list is one to fill: "Add at least one item to “Conditions”."
      if (!present) return issue.expected === 'array' ? { kind: 'too_few', minimum: 1 } : { kind: 'required' };
      return { kind: 'wrong_type', expected: typeWords[issue.expected] ?? 'value' };
    }
    case 'too_small': {
      const minimum = Number(issue.minimum);
      if (issue.origin === 'array' || issue.origin === 'set') return { kind: 'too_few', minimum };
      if (issue.origin === 'string') return minimum <= 1 ? { kind: 'required' } : { kind: 'too_short', minimum };
      return { kind: 'too_low', minimum };
    }
    case 'too_big': {
      const maximum = Number(issue.maximum);
      if (issue.origin === 'array' || issue.origin === 'set') return { kind: 'too_many', maximum };
      if (issue.origin === 'string') return { kind: 'too_long', maximum };
      return { kind: 'too_high', maximum };
    }
    case 'invalid_value':
      return { kind: 'not_an_option', options: issue.values.map((value) => String(value)) };
    case 'invalid_format':
      return { kind: 'bad_format', format: issue.format };
    case 'unrecognized_keys':
      return { kind: 'unknown_fields', keys: [...issue.keys] };
    case 'invalid_union':
      return { kind: 'no_accepted_form' };
    default:
      return { kind: 'other' };
  }
}

const formatWords: Record<string, string> = { uuid: 'an id', guid: 'an id', email: 'an email address', url: 'a web address', datetime: 'a date and time', date: 'a date', regex: 'the expected pattern' };

/** The English sentence for a rule about `field` (already in words); `fallback`: zod's text, for rules without words. */
export function sentenceOf(rule: IssueRule, field: string, fallback: string): string {
  const name = field ? `“${field}”` : 'The parameters';
  const plural = (n: number, one: string, many: string) => (n === 1 ? `one ${one}` : `${n.toLocaleString('en')} ${many}`);
  switch (rule.kind) {
    case 'required':
      return field ? `Fill in ${name}.` : 'Fill in the parameters.';
    case 'wrong_type':
      return `${name} must be ${expectedText[rule.expected]}.`;
    case 'too_few':
      return `Add at least ${plural(rule.minimum, 'item', 'items')} to ${name}.`;
    case 'too_many':
      return `${name} takes at most ${plural(rule.maximum, 'item', 'items')}.`;
    case 'too_short':
      return `${name} needs at least ${plural(rule.minimum, 'character', 'characters')}.`;
    case 'too_long':
      return `${name} takes at most ${plural(rule.maximum, 'character', 'characters')}.`;
    case 'too_low':
      return `${name} must be at least ${rule.minimum.toLocaleString('en')}.`;
    case 'too_high':
      return `${name} must be at most ${rule.maximum.toLocaleString('en')}.`;
    case 'not_an_option':
      return `Choose one of the options for ${name}.`;
    case 'bad_format':
      return `${name} is not ${formatWords[rule.format] ?? `in the expected format (${rule.format})`}.`;
    case 'unknown_fields':
      return `${field ? `${name} has` : 'This node has'} fields it does not take: ${rule.keys.map((key) => `“${key}”`).join(', ')}.`;
    case 'no_accepted_form':
      return `${name} is not in any of the accepted forms.`;
    case 'expression':
    case 'other':
      return fallback;
  }
}

/**
 * One zod issue of a node's parameters as `{message, rule}`. `present`: whether the parameters hold
 * a value at the issue's path (zod's issues do not carry the input: a missing value is "Fill in").
 */
export function readableIssue(issue: z.core.$ZodIssue, present: boolean): { message: string; rule: IssueRule } {
  const rule = ruleOf(issue, present);
  const { field, where } = fieldLabel(issue.path);
  // A custom rule's own message (a refine's) is already written for people; zod's generic texts are not.
  const fallback = issue.code === 'custom' ? issue.message : `${field ? `“${field}”: ` : ''}this value is not accepted.`;
  const sentence = sentenceOf(rule, field, fallback);
  return { message: where && rule.kind !== 'other' ? `${where}: ${sentence}` : sentence, rule };
}
