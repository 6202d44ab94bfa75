/**
 * Issue 19 §6: the expression editor completes fields from the trigger's known shape (a mail
 * trigger's fields are known without a test run: its node type's output schema, as GET
 * /api/v1/node-types serves it), merged with the previous nodes' last test output and the input.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { findNodeType } from '@/server/engine/nodes/registry';
import { completePath } from './completions';
import { pathStatus, scopePathsIn, type JsonSchemaLike } from './known-fields';
import type { SampleScope } from './preview';

/** What the node-types route serves as the mail trigger's `outputSchema` (server/domains/node-types/service.ts). */
const mailShape = z.toJSONSchema(findNodeType('trigger.mail', 1)!.output!, { io: 'output', unrepresentable: 'any' }) as JsonSchemaLike;

const labels = (text: string, sample: SampleScope) => completePath(text, sample)?.options.map((option) => option.label);

describe('field completion without a test run', () => {
  const noRun: SampleScope = { trigger: {}, input: {}, nodes: {}, shapes: { trigger: mailShape, input: mailShape, nodes: { mail: mailShape } } };

  it('offers the mail trigger’s fields after `{{ trigger.`', () => {
    const offered = labels('{{ trigger.', noRun);
    expect(offered).toEqual(expect.arrayContaining(['subject', 'from', 'to', 'snippet', 'receivedAt', 'hasAttachments', 'isMailingList', 'signals']));
  });

  it('walks into nested fields and lists (`trigger.from.`, `trigger.to.`), with a word about each', () => {
    expect(labels('{{ trigger.from.', noRun)).toEqual(['name', 'email']);
    expect(labels('{{ trigger.to.', noRun)).toEqual(['name', 'email']);
    const subject = completePath('{{ trigger.sub', noRun)!.options[0];
    expect(subject.label).toBe('subject');
    expect(subject.detail).toContain('The subject');
  });

  it('walks into the sender’s address book entry (`trigger.contact.`, issue 22), so a condition can name `status`', () => {
    expect(labels('{{ trigger.contact.', noRun)).toEqual(expect.arrayContaining(['status', 'displayName', 'formality', 'tone', 'language', 'notes', 'known', 'sources']));
    expect(labels('{{ trigger.contact.sources.', noRun)).toEqual(expect.arrayContaining(['status', 'formality']));
  });

  it('offers the input’s fields when the previous node is the mail trigger, and a node’s by its id', () => {
    expect(labels('{{ input.fr', noRun)).toEqual(['from']);
    expect(labels('{{ nodes.mail.from.', noRun)).toEqual(['name', 'email']);
  });

  it('merges the last test run’s data with the shape: the run’s keys first, then those only the shape knows', () => {
    const withRun: SampleScope = { ...noRun, trigger: { subject: 'Invoice 7', extra: 1 } };
    const offered = labels('{{ trigger.', withRun)!;
    expect(offered.slice(0, 2)).toEqual(['subject', 'extra']);
    expect(offered).toContain('from');
    expect(offered.filter((label) => label === 'subject')).toHaveLength(1);
  });

  it('without a shape or a run, offers nothing below the roots (as before)', () => {
    expect(completePath('{{ trigger.', { trigger: {} })).toBeNull();
  });
});

describe('known paths', () => {
  it('reads the scope paths of an expression, leaving string literals out', () => {
    expect(scopePathsIn('trigger.from.email & " trigger.nope " & nodes.`mail-1`.subject')).toEqual([
      ['trigger', 'from', 'email'],
      ['nodes', 'mail-1', 'subject'],
    ]);
  });

  it('a key the closed shape lacks is unknown; one it names is known; free data says nothing', () => {
    expect(pathStatus({ schema: mailShape }, ['from', 'email'])).toBe('known');
    expect(pathStatus({ schema: mailShape }, ['form'])).toBe('unknown');
    expect(pathStatus({ value: { a: { b: 1 } } }, ['a', 'c'])).toBe('unknown');
    expect(pathStatus({ value: { a: null } }, ['a', 'c'])).toBe('unsure');
    expect(pathStatus({ schema: { type: 'object' } }, ['anything'])).toBe('unsure');
  });
});
