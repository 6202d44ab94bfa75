import { describe, expect, it } from 'vitest';
import { stepLabels } from './steps';

describe('stepLabels: a template card speaks of steps in words', () => {
  const labels = new Map([
    ['trigger.mail@1', 'Incoming mail'],
    ['logic.if@1', 'Condition'],
    ['logic.if@2', 'Condition'],
    ['mail.label@1', 'Label'],
  ]);

  it('names each step by its label, once, never by its type id', () => {
    const shown = stepLabels(['logic.if@1', 'logic.if@2', 'mail.label@1', 'trigger.mail@1'], labels);
    expect(shown).toEqual(['Condition', 'Label', 'Incoming mail']);
    expect(shown.join(' ')).not.toMatch(/@\d/);
  });

  it('leaves out a type whose label is not known yet instead of showing its id', () => {
    expect(stepLabels(['flow.unknown@1', 'mail.label@1'], labels)).toEqual(['Label']);
    expect(stepLabels(['mail.label@1'], new Map())).toEqual([]);
  });
});
