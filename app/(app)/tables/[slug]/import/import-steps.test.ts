import { describe, expect, it } from 'vitest';
import { en } from '@/app/i18n/en';
import type { ImportPreview, ImportResult, Table } from '../../_lib/api';
import { importReducer, importStepOf, initialImportState, mappingProblem, validLineCount, type ImportEvent, type ImportState } from './import-steps';

const column = (key: string, label: string, isKey = false) => ({ key, label, isKey, type: 'text' });
const keyed = { id: 't', columns: [column('invoice', 'Invoice', true), column('amount', 'Amount')] } as unknown as Table;
const unkeyed = { id: 't', columns: [column('note', 'Note')] } as unknown as Table;
const preview = { headers: ['Invoice', 'Total'], sample: [['INV-1', '87.40']], lineCount: 12, mapping: { Invoice: 'invoice', Total: 'amount' } } as unknown as ImportPreview;
const file = { name: 'invoices.csv', csv: 'Invoice,Total\nINV-1,87.40\n' };
const d = en.tables.importDialog;

function run(table: Table, ...events: ImportEvent[]): ImportState {
  return events.reduce(importReducer, initialImportState(table));
}

describe('the CSV import steps', () => {
  it('starts at choosing a file, upserting when the table has a key column and inserting when it has none', () => {
    expect(importStepOf(initialImportState(keyed))).toBe('choose');
    expect(initialImportState(keyed).mode).toBe('upsert');
    expect(initialImportState(unkeyed).mode).toBe('insert');
  });

  it('reaches the mapping once the file is chosen and previewed, starting from the service’s suggested mapping', () => {
    const chosen = run(keyed, { type: 'fileChosen', file });
    expect(importStepOf(chosen)).toBe('choose');
    const previewed = importReducer(chosen, { type: 'previewed', preview });
    expect(importStepOf(previewed)).toBe('mapping');
    expect(previewed.mapping).toEqual({ Invoice: 'invoice', Total: 'amount' });
  });

  it('goes back to choosing when another file is asked for', () => {
    expect(importStepOf(run(keyed, { type: 'fileChosen', file }, { type: 'previewed', preview }, { type: 'chooseOther' }))).toBe('choose');
  });

  it('shows refused lines, back to the mapping on request, and the result once imported', () => {
    const mapped = run(keyed, { type: 'fileChosen', file }, { type: 'previewed', preview });
    const refused = importReducer(mapped, { type: 'refused', rejected: { lines: [], count: 3 } });
    expect(importStepOf(refused)).toBe('rejected');
    expect(validLineCount(refused)).toBe(9);
    expect(importStepOf(importReducer(refused, { type: 'backToMapping' }))).toBe('mapping');
    const done = importReducer(refused, { type: 'imported', result: { inserted: 9, updated: 0, rejectedCount: 3, rejected: [] } as unknown as ImportResult });
    expect(importStepOf(done)).toBe('done');
    expect(done.rejected).toBeNull();
  });

  it('a new file forgets the previous preview, refusal and result', () => {
    const done = run(keyed, { type: 'fileChosen', file }, { type: 'previewed', preview }, { type: 'imported', result: { inserted: 1 } as unknown as ImportResult });
    const again = importReducer(done, { type: 'fileChosen', file: { name: 'b.csv', csv: 'x' } });
    expect({ step: importStepOf(again), preview: again.preview, result: again.result }).toEqual({ step: 'choose', preview: null, result: null });
  });

  it('refuses a mapping that maps nothing, maps two file columns into one, or upserts without the key column, saying which', () => {
    expect(mappingProblem({ mode: 'insert', mapping: { Invoice: null } }, keyed, d)).toBe(d.nothingMapped);
    expect(mappingProblem({ mode: 'insert', mapping: { Invoice: 'amount', Total: 'amount' } }, keyed, d)).toBe(d.mappedTwice('Amount'));
    expect(mappingProblem({ mode: 'upsert', mapping: { Total: 'amount' } }, keyed, d)).toBe(d.upsertKeyUnmapped('Invoice'));
    expect(mappingProblem({ mode: 'insert', mapping: { Total: 'amount' } }, keyed, d)).toBeNull();
    expect(mappingProblem({ mode: 'upsert', mapping: { Invoice: 'invoice', Total: 'amount' } }, keyed, d)).toBeNull();
  });
});
