import { describe, expect, it } from 'vitest';
import { en } from '@/app/i18n/en';
import { fr } from '@/app/i18n/fr';
import { runErrorText } from './run-error-text';

const refused = {
  code: 'tables.write_refused',
  message: 'Column “Amount” (amount, number): “EUR 87.40x” is not a number.',
  details: { code: 'tables.invalid_cells', column: 'amount', problems: [{ column: 'amount', reason: 'wrong_type', value: 'EUR 87.40x', message: '…' }] },
};

describe('run errors name the column, value and why in the interface language', () => {
  it('a table refusal in French and English', () => {
    expect(runErrorText(refused, fr)).toBe('Colonne «\u00a0amount\u00a0», valeur «\u00a0EUR 87.40x\u00a0»\u00a0: Cette valeur ne correspond pas au type de la colonne.');
    expect(runErrorText(refused, en)).toBe('Column “amount”, value “EUR 87.40x”: This value does not fit the column type.');
  });

  it('counts the other cells refused, and names a missing value without quoting one', () => {
    const two = { ...refused, details: { problems: [{ column: 'invoice', reason: 'required' }, { column: 'amount', reason: 'ambiguous_number', value: '1,234' }] } };
    expect(runErrorText(two, en)).toBe('Column “invoice”: This column is required. 1 other cell does not fit either.');
  });

  it('any other error keeps the engine’s sentence', () => {
    const folder = { code: 'invalid_parameter', message: 'params.folder: the message’s mailbox has no folder “Invoices”.', details: { path: 'params.folder' } };
    expect(runErrorText(folder, fr)).toBe(folder.message);
  });
});
