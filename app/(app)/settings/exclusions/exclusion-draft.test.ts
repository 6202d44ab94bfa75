import { describe, expect, it } from 'vitest';
import { checkDraft, fieldErrorOf, storedPreview, type DraftMessages } from './exclusion-draft';

const m: DraftMessages = {
  valueRequired: 'required',
  invalidAddress: 'address',
  invalidDomain: 'domain',
  valueTooLong: (max) => `value max ${max}`,
  noteTooLong: (max) => `note max ${max}`,
  duplicate: 'duplicate',
  limitReached: 'full',
};

describe('exclusion draft', () => {
  it('previews the stored form only when it differs from what was typed', () => {
    expect(storedPreview('domain', '@Example.COM ')).toBe('example.com');
    expect(storedPreview('address', ' Boss@Example.com')).toBe('boss@example.com');
    expect(storedPreview('domain', 'example.com')).toBeNull();
    expect(storedPreview('address', '   ')).toBeNull();
    // An address keeps its @: only a domain loses a leading one.
    expect(storedPreview('address', '@example.com')).toBeNull();
  });

  it('checks the value by kind and sends it trimmed, the note only when given', () => {
    expect(checkDraft({ kind: 'domain', value: ' @news.example.com ', note: '' }, m)).toEqual({ data: { kind: 'domain', value: '@news.example.com' } });
    expect(checkDraft({ kind: 'address', value: 'a@b.example', note: ' noisy ' }, m)).toEqual({ data: { kind: 'address', value: 'a@b.example', note: 'noisy' } });
    expect(checkDraft({ kind: 'domain', value: '', note: '' }, m)).toEqual({ errors: { value: 'required' } });
    expect(checkDraft({ kind: 'domain', value: 'localhost', note: '' }, m)).toEqual({ errors: { value: 'domain' } });
    expect(checkDraft({ kind: 'domain', value: 'a@example.com', note: '' }, m)).toEqual({ errors: { value: 'domain' } });
    expect(checkDraft({ kind: 'address', value: 'example.com', note: '' }, m)).toEqual({ errors: { value: 'address' } });
    expect(checkDraft({ kind: 'address', value: `${'a'.repeat(250)}@b.example`, note: '' }, m)).toEqual({ errors: { value: 'value max 254' } });
    expect(checkDraft({ kind: 'domain', value: 'example.com', note: 'x'.repeat(501) }, m)).toEqual({ errors: { note: 'note max 500' } });
  });

  it('maps the server error codes to inline messages', () => {
    expect(fieldErrorOf('exclusion.duplicate', 'domain', m)).toEqual({ value: 'duplicate' });
    expect(fieldErrorOf('exclusion.limit_reached', 'address', m)).toEqual({ value: 'full' });
    expect(fieldErrorOf('request.bad_request', 'domain', m, ['value'])).toEqual({ value: 'domain' });
    expect(fieldErrorOf('request.bad_request', 'address', m, [])).toEqual({ value: 'address' });
    expect(fieldErrorOf('request.bad_request', 'address', m, ['note'])).toEqual({ note: 'note max 500' });
    expect(fieldErrorOf('auth.forbidden', 'domain', m)).toBeNull();
    expect(fieldErrorOf(null, 'domain', m)).toBeNull();
  });
});
