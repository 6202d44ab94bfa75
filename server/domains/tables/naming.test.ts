import { describe, expect, it } from 'vitest';
import { firstFree, isColumnKey, isSlug, keyFromLabel, slugFromName } from './naming';

describe('slugFromName', () => {
  it.each([
    ['Customers', 'customers'],
    ['Customers (EU) 2026', 'customers-eu-2026'],
    ['Équipe été', 'equipe-ete'],
    ['2026 budget', 'budget'],
    ['???', 'table'],
    ['  Leads -- hot  ', 'leads-hot'],
    ['a'.repeat(80), 'a'.repeat(60)],
  ])('%j → %j', (name, slug) => {
    expect(slugFromName(name)).toBe(slug);
    expect(isSlug(slugFromName(name))).toBe(true);
  });
});

describe('keyFromLabel', () => {
  it.each([
    ['Email', 'email'],
    ['E-mail address', 'e_mail_address'],
    ['Prénom', 'prenom'],
    ['1st contact', 'st_contact'],
    ['!!!', 'column'],
  ])('%j → %j', (label, key) => {
    expect(keyFromLabel(label)).toBe(key);
    expect(isColumnKey(keyFromLabel(label))).toBe(true);
  });
});

describe('firstFree', () => {
  it('adds the first free numeric suffix', () => {
    expect(firstFree('leads', new Set(), '-')).toBe('leads');
    expect(firstFree('leads', new Set(['leads', 'leads-2']), '-')).toBe('leads-3');
    expect(firstFree('email', new Set(['email']), '_')).toBe('email_2');
  });

  it('keeps the result within the length bound', () => {
    const base = 'x'.repeat(60);
    const result = firstFree(base, new Set([base]), '-');
    expect(result).toBe(`${'x'.repeat(58)}-2`);
    expect(result.length).toBe(60);
  });
});
