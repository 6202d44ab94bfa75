import { describe, expect, it } from 'vitest';
import { humanize, initialValue, isLongText, kindOf, matchBranch, type JsonSchema } from './schema';
import { connectionTypesIn, pickerFor } from './pickers';

describe('schema reading', () => {
  it.each<[JsonSchema, string]>([
    [{ type: 'string' }, 'string'],
    [{ type: 'integer' }, 'integer'],
    [{ type: 'string', enum: ['a'] }, 'enum'],
    [{ type: 'string', const: 'a' }, 'const'],
    [{ type: 'object', properties: {} }, 'object'],
    [{ type: 'object', additionalProperties: { type: 'string' } }, 'record'],
    [{ anyOf: [{ type: 'string' }, { type: 'null' }] }, 'union'],
    [{ type: 'array', items: {} }, 'array'],
    [{}, 'unknown'],
    [{ description: 'any' }, 'unknown'],
  ])('%j is a %s field', (schema, kind) => {
    expect(kindOf(schema)).toBe(kind);
  });

  it('tells union branches apart by discriminator, then by type', () => {
    const body: JsonSchema[] = [
      { type: 'object', properties: { type: { const: 'none' } } },
      { type: 'object', properties: { type: { const: 'json' }, json: {} } },
    ];
    expect(matchBranch(body, { type: 'json', json: 1 })).toBe(1);
    expect(matchBranch(body, undefined)).toBe(-1);
    const to: JsonSchema[] = [{ type: 'array', items: { type: 'string' } }, { type: 'string' }, { type: 'null' }];
    expect([matchBranch(to, ['a']), matchBranch(to, 'a'), matchBranch(to, null)]).toEqual([0, 1, 2]);
  });

  it('starts new values with their required parts only', () => {
    const condition: JsonSchema = {
      type: 'object',
      properties: { left: {}, operator: { type: 'string', enum: ['equals', 'contains'] }, right: {} },
      required: ['left', 'operator'],
    };
    expect(initialValue(condition)).toEqual({ left: '', operator: 'equals' });
    expect(initialValue({ type: 'integer', minimum: 1 })).toBe(1);
    expect(initialValue({ type: 'array', minItems: 1, items: { type: 'string' } })).toEqual(['']);
    expect(initialValue({ oneOf: [{ type: 'object', properties: { mode: { const: 'duration' } }, required: ['mode'] }] })).toEqual({ mode: 'duration' });
    expect(initialValue({ type: 'string', default: 'UTC' })).toBe('UTC');
  });

  it('names fields and picks editors', () => {
    expect(humanize('maxResponseBytes')).toBe('Max response bytes');
    expect(humanize('bodyHTML')).toBe('Body html');
    expect(isLongText('bodyText', {})).toBe(true);
    expect(isLongText('subject', { maxLength: 500 })).toBe(false);
  });

  it('finds the pickers by parameter name and the type’s mailbox params', () => {
    expect(pickerFor('mailboxIds', { type: 'array' }, ['mailboxIds'], ['mailboxIds'])).toBe('mailboxes');
    expect(pickerFor('mailboxId', { type: 'string' }, ['mailboxId'], ['mailboxId'])).toBe('mailbox');
    expect(pickerFor('mailboxId', { type: 'string' }, ['mailboxId'], [])).toBeNull();
    expect(pickerFor('tableId', { type: 'string' }, ['tableId'], [])).toBe('table');
    expect(pickerFor('credentialId', { type: 'string' }, ['credentialId'], [])).toBe('connection');
    expect(pickerFor('workflowId', { type: 'string' }, ['workflowId'], [])).toBe('workflow');
    expect(pickerFor('title', { type: 'string' }, ['title'], [])).toBeNull();
    expect(connectionTypesIn('An `http_generic` connection', ['http_generic', 'imap'])).toEqual(['http_generic']);
  });
});
