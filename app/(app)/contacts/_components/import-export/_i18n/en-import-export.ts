/** English strings of the address book's Import and Export dialogs (app/(app)/contacts/_components/import-export/). */
import { pluralEn as plural } from '@/app/i18n/plural';

export const enImportExport = {
  importButton: 'Import',
  exportButton: 'Export',
  layer: 'Address book',
  layers: { member: 'My cards', mailbox: (address: string) => `My cards for ${address}`, shared: 'Organisation cards (shared)' },
  format: 'Format',
  formats: { vcard: 'vCard (.vcf)', csv: 'CSV (.csv)' },
  import: {
    title: 'Import contacts',
    description: 'A vCard (4.0 or 3.0) or CSV file. You see what each line becomes before anything is written.',
    file: 'Choose a file',
    fileHint: 'vCard: FN, EMAIL, ORG, NOTE, LANG, KIND. CSV: a header line with value, and optionally kind and the layer’s fields. At most 2 MB and 5,000 entries.',
    reading: 'Reading the file…',
    tooLarge: 'The file is larger than 2 MB. Split it and import the parts.',
    unreadable: 'The file could not be read.',
    empty: 'The file is empty.',
    chooseOther: 'Choose another file',
    summary: (name: string, lines: number) => `${name}: ${plural(lines, 'line', 'lines')}`,
    counts: { create: 'New', update: 'Updated', unchanged: 'Unchanged', error: 'Errors' },
    actions: { create: 'New', update: 'Update', unchanged: 'Unchanged', error: 'Error' },
    columns: { line: 'Line', entry: 'Address or domain', action: 'Becomes', details: 'Details' },
    line: (line: number) => `Line ${line}`,
    noValue: '(none)',
    moreLines: (count: number) => `${plural(count, 'more line', 'more lines')} not shown.`,
    errorsNote: (count: number) => `${plural(count, 'line has', 'lines have')} errors. Fix the file and choose it again, or import the valid lines only.`,
    nothingToDo: 'Every line is already in your address book as it is in the file.',
    submit: (count: number) => `Import ${plural(count, 'line', 'lines')}`,
    submitValid: (count: number) => `Import the ${plural(count, 'valid line', 'valid lines')}`,
    submitting: 'Importing…',
    doneTitle: 'Import done',
    done: (created: number, updated: number, unchanged: number, skipped: number) =>
      [
        `${plural(created, 'card', 'cards')} created`,
        `${updated} updated`,
        `${unchanged} unchanged`,
        ...(skipped > 0 ? [`${plural(skipped, 'line', 'lines')} with errors left out`] : []),
      ].join(' · '),
    rejectedTitle: (count: number) => `${plural(count, 'line', 'lines')} cannot be imported: nothing was written`,
    reasons: {
      binary: 'The file is not text: choose a vCard (.vcf) or CSV file.',
      empty: 'The file holds no card (BEGIN:VCARD … END:VCARD).',
      tooManyEntries: 'The file has more than 5,000 entries: split it.',
      unknownHeader: (header: string) => `The column “${header}” is not a field of this address book.`,
      duplicateHeader: (header: string) => `The column “${header}” appears twice.`,
      valueMissing: 'The file has no “value” column (the address or the domain).',
      unreadable: 'The file is not readable as CSV.',
    },
  },
  export: {
    title: 'Export contacts',
    description: 'Download the cards of one address book as a file, to keep or to import elsewhere.',
    csvSafety: 'In CSV, a text starting with =, +, - or @ is prefixed with an apostrophe so a spreadsheet never runs it as a formula.',
    download: 'Download',
  },
  close: 'Close',
  cancel: 'Cancel',
};

export type ImportExportTexts = typeof enImportExport;
