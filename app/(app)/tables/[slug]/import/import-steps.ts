/**
 * The CSV import's steps as data: which step the dialog shows follows from what the person has done
 * (chosen a file, got the service's preview, been refused some lines, imported), never from a
 * separate "step" variable that could disagree with it. Pure, so each transition is tested without a
 * browser (`import-steps.test.ts`); the dialog only renders the step and sends the events.
 */
import type { Dictionary } from '@/app/i18n';
import type { ImportPreview, ImportResult, RejectedLine, Table } from '../../_lib/api';

export type ImportMode = 'insert' | 'upsert';
export type ImportStep = 'choose' | 'mapping' | 'rejected' | 'done';

export interface ImportState {
  file: { name: string; csv: string } | null;
  preview: ImportPreview | null;
  /** The file's header → a table column key, or null to skip it. */
  mapping: Record<string, string | null>;
  mode: ImportMode;
  /** Lines the service refused (nothing was written), with how many there were in all. */
  rejected: { lines: RejectedLine[]; count: number } | null;
  result: ImportResult | null;
}

export type ImportEvent =
  | { type: 'fileChosen'; file: { name: string; csv: string } }
  | { type: 'previewed'; preview: ImportPreview }
  | { type: 'chooseOther' }
  | { type: 'mapped'; header: string; column: string | null }
  | { type: 'modeChosen'; mode: ImportMode }
  | { type: 'refused'; rejected: { lines: RejectedLine[]; count: number } }
  | { type: 'backToMapping' }
  | { type: 'imported'; result: ImportResult };

/** Upsert when the table has a key column (a re-import then updates instead of duplicating), else insert. */
export function initialImportState(table: Table): ImportState {
  return { file: null, preview: null, mapping: {}, mode: table.columns.some((column) => column.isKey) ? 'upsert' : 'insert', rejected: null, result: null };
}

export function importReducer(state: ImportState, event: ImportEvent): ImportState {
  switch (event.type) {
    case 'fileChosen':
      return { ...state, file: event.file, preview: null, result: null, rejected: null };
    case 'previewed':
      // The service's suggested mapping is the starting point; the person corrects it.
      return { ...state, preview: event.preview, mapping: event.preview.mapping };
    case 'chooseOther':
      return { ...state, file: null, preview: null };
    case 'mapped':
      return { ...state, mapping: { ...state.mapping, [event.header]: event.column } };
    case 'modeChosen':
      return { ...state, mode: event.mode };
    case 'refused':
      return { ...state, rejected: event.rejected };
    case 'backToMapping':
      return { ...state, rejected: null };
    case 'imported':
      return { ...state, result: event.result, rejected: null };
  }
}

export function importStepOf(state: ImportState): ImportStep {
  if (state.result) return 'done';
  if (state.rejected) return 'rejected';
  return state.preview && state.file ? 'mapping' : 'choose';
}

/** Why the mapping cannot be imported as it stands (in the reader's language), or null when it can. */
export function mappingProblem(state: Pick<ImportState, 'mapping' | 'mode'>, table: Table, d: Dictionary['tables']['importDialog']): string | null {
  const targets = Object.values(state.mapping).filter((value): value is string => Boolean(value));
  if (targets.length === 0) return d.nothingMapped;
  const twice = targets.find((target, index) => targets.indexOf(target) !== index);
  if (twice) return d.mappedTwice(table.columns.find((column) => column.key === twice)?.label ?? twice);
  const keyColumn = table.columns.find((column) => column.isKey);
  if (state.mode === 'upsert' && keyColumn && !targets.includes(keyColumn.key)) return d.upsertKeyUnmapped(keyColumn.label);
  return null;
}

/** Lines that would be imported if the refused ones are skipped. */
export function validLineCount(state: ImportState): number {
  return state.preview && state.rejected ? state.preview.lineCount - state.rejected.count : 0;
}
