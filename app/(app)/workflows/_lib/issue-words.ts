/**
 * A graph issue said in the member's language: the server words a parameter's issue in English and
 * sends the rule behind it (`rule`: required, too_few…), so the builder says it again in French or
 * English, naming the field the way the generated form labels it ("Conditions", "Max response
 * bytes"). An issue without a rule keeps the server's sentence.
 */
import type { Dictionary } from '@/app/i18n';
import { fieldLabel } from '@/server/engine/nodes/readable-issue';
import type { GraphIssue } from './graph-issues';

type Words = Dictionary['params']['issues'];

/** The segments of a path inside a node's parameters: `nodes[1].params.conditions[0].left` → ['conditions', 0, 'left']. */
function paramSegments(path: string): (string | number)[] {
  const at = path.indexOf('params');
  const rest = at < 0 ? path : path.slice(at + 'params'.length);
  const segments: (string | number)[] = [];
  for (const match of rest.matchAll(/\.([^.[\]]+)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]/g)) {
    if (match[1] !== undefined) segments.push(match[1]);
    else if (match[2] !== undefined) segments.push(Number(match[2]));
    else segments.push(match[3]);
  }
  return segments;
}

function fieldOf(path: string, words: Words): { field: string; where: string } {
  return fieldLabel(paramSegments(path), words.where);
}

const number = (value: unknown) => (typeof value === 'number' ? value : Number(value));

/** The issue's message in the dictionary's language (the server's own when the rule has no words). */
export function issueInWords(issue: GraphIssue, words: Words): string {
  const rule = issue.rule;
  if (!rule) return issue.message;
  const { field, where } = fieldOf(issue.path, words);
  let sentence: string | null;
  switch (rule.kind) {
    case 'required':
      sentence = words.required(field);
      break;
    case 'wrong_type':
      sentence = words.wrongType(field, words.expected[String(rule.expected)] ?? words.expected.value);
      break;
    case 'too_few':
      sentence = words.tooFew(field, number(rule.minimum));
      break;
    case 'too_many':
      sentence = words.tooMany(field, number(rule.maximum));
      break;
    case 'too_short':
      sentence = words.tooShort(field, number(rule.minimum));
      break;
    case 'too_long':
      sentence = words.tooLong(field, number(rule.maximum));
      break;
    case 'too_low':
      sentence = words.tooLow(field, number(rule.minimum));
      break;
    case 'too_high':
      sentence = words.tooHigh(field, number(rule.maximum));
      break;
    case 'not_an_option':
      sentence = words.notAnOption(field);
      break;
    case 'bad_format':
      sentence = words.badFormat(field, String(rule.format));
      break;
    case 'unknown_fields':
      sentence = words.unknownFields(field, (Array.isArray(rule.keys) ? rule.keys : []).map((key) => `“${String(key)}”`).join(', '));
      break;
    case 'no_accepted_form':
      sentence = words.noAcceptedForm(field);
      break;
    default:
      sentence = null;
  }
  if (sentence === null) return issue.message;
  return where ? `${where}: ${sentence}` : sentence;
}

/** Every issue with its message in the dictionary's language. */
export function issuesInWords(issues: readonly GraphIssue[], words: Words): GraphIssue[] {
  return issues.map((issue) => ({ ...issue, message: issueInWords(issue, words) }));
}
