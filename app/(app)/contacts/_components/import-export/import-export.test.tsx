// @vitest-environment jsdom
/**
 * The address book's Import and Export dialogs over a tRPC client answering from handlers: the preview shows what
 * each line becomes with the per-line errors, the import of the valid lines sends `skipInvalid`, a file refused whole
 * says why in the interface language, a 422 lists its lines, administrators alone get the shared layer as a target,
 * and the export's link carries the choices. The service's rules: server/domains/contacts/import-export/.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { enImportExport } from './_i18n/en-import-export';
import { frImportExport } from './_i18n/fr-import-export';
import { ContactsImportExport } from './contacts-import-export';
import { renderWithTrpc, trpcAppError, type TrpcHandler } from '@/app/testing/render-with-trpc';

vi.mock('next/navigation', () => ({ useRouter: () => ({ refresh() {}, replace() {} }) }));

afterEach(cleanup);

const mailboxId = '00000000-0000-4000-8000-0000000000b1';

const appError = trpcAppError;

const previewAnswer = {
  format: 'vcard',
  layer: 'member',
  mailboxId: null,
  counts: { create: 1, update: 1, unchanged: 0, error: 1 },
  lines: [
    { line: 1, kind: 'contact', value: 'ada@example.com', action: 'create', fields: { language: 'en' }, problems: [] },
    { line: 6, kind: 'contact', value: 'bob@example.com', action: 'update', fields: { formality: 'vous' }, problems: [] },
    {
      line: 11,
      kind: null,
      value: null,
      action: 'error',
      fields: {},
      problems: [{ column: null, reason: 'vcard_unterminated', message: 'The card starting at line 11 has no END:VCARD.' }],
    },
  ],
};

function renderDialogs(handlers: Record<string, TrpcHandler>, options: { canWriteShared?: boolean; locale?: 'en' | 'fr' } = {}) {
  const all: Record<string, TrpcHandler> = { 'mailboxes.list': () => ({ mailboxes: [{ id: mailboxId, address: 'sales@example.com' }] }), ...handlers };
  return renderWithTrpc(<ContactsImportExport canWriteShared={options.canWriteShared ?? false} />, all, { locale: options.locale });
}

const vcf = 'BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ada\r\nEMAIL:ada@example.com\r\nEND:VCARD\r\n';

async function chooseFile(name: string, text: string) {
  const input = await screen.findByTestId('import-file');
  fireEvent.change(input, { target: { files: [new File([text], name, { type: 'text/plain' })] } });
}

describe('ContactsImportExport: import', () => {
  it('previews each line with its action and per-line errors, then imports the valid lines only', async () => {
    const calls = renderDialogs({
      'contacts.import.preview': () => previewAnswer,
      'contacts.import.commit': () => ({ created: 1, updated: 1, unchanged: 0, rejectedCount: 1, rejected: [] }),
    });
    fireEvent.click(screen.getByTestId('contacts-import'));
    await chooseFile('book.vcf', vcf);
    const rows = await screen.findAllByTestId('import-line');
    expect(rows.map((row) => row.getAttribute('data-action'))).toEqual(['create', 'update', 'error']);
    expect(within(rows[2]!).getByTestId('import-line-problems').textContent).toBe('The card starting at line 11 has no END:VCARD.');
    expect(screen.getByTestId('import-count-error').textContent).toBe(`${enImportExport.import.counts.error}: 1`);
    expect(screen.getByTestId('import-errors-note').textContent).toContain(enImportExport.import.errorsNote(1));
    const preview = calls.find((call) => call.path === 'contacts.import.preview');
    expect(preview?.input).toEqual({ format: 'vcard', layer: 'member', file: vcf });

    const submit = screen.getByTestId('import-submit');
    expect(submit.textContent).toBe(enImportExport.import.submitValid(2));
    fireEvent.click(submit);
    expect((await screen.findByTestId('import-result')).textContent).toContain(enImportExport.import.done(1, 1, 0, 1));
    expect(calls.find((call) => call.path === 'contacts.import.commit')?.input).toEqual({ format: 'vcard', layer: 'member', file: vcf, skipInvalid: true });
  });

  it('a CSV into one of my mailboxes: the target goes with the preview; no shared target for a member', async () => {
    const calls = renderDialogs({ 'contacts.import.preview': () => ({ ...previewAnswer, format: 'csv', counts: { create: 1, update: 0, unchanged: 0, error: 0 }, lines: [previewAnswer.lines[0]] }) });
    fireEvent.click(screen.getByTestId('contacts-import'));
    const select = (await screen.findByTestId('import-target')) as HTMLSelectElement;
    await waitFor(() => expect(select.options.length).toBe(2));
    expect([...select.options].map((option) => option.value)).toEqual(['member', `mailbox:${mailboxId}`]);
    fireEvent.change(select, { target: { value: `mailbox:${mailboxId}` } });
    await chooseFile('people.csv', 'value\nada@example.com\n');
    await screen.findAllByTestId('import-line');
    expect(calls.find((call) => call.path === 'contacts.import.preview')?.input).toMatchObject({ format: 'csv', layer: 'member', mailboxId });
    expect(screen.getByTestId('import-submit').textContent).toBe(enImportExport.import.submit(1));
  });

  it('administrators may import into the shared layer', async () => {
    renderDialogs({}, { canWriteShared: true });
    fireEvent.click(screen.getByTestId('contacts-import'));
    const select = (await screen.findByTestId('import-target')) as HTMLSelectElement;
    await waitFor(() => expect([...select.options].map((option) => option.value)).toContain('shared'));
  });

  it('a file refused whole says why in the interface language (an unknown CSV column, in French)', async () => {
    renderDialogs({ 'contacts.import.preview': () => Promise.reject(appError('request.bad_request', { reason: 'csv_unknown_header', header: '__proto__' })) }, { locale: 'fr' });
    fireEvent.click(screen.getByTestId('contacts-import'));
    await chooseFile('bad.csv', 'value,__proto__\na@example.com,x\n');
    expect((await screen.findByTestId('import-preview-error')).textContent).toBe(frImportExport.import.reasons.unknownHeader('__proto__'));
    expect(screen.queryByTestId('import-submit')).toBeNull();
  });

  it('a 422 at import time lists the refused lines; nothing was written', async () => {
    renderDialogs({
      'contacts.import.preview': () => ({ ...previewAnswer, counts: { create: 1, update: 0, unchanged: 0, error: 0 }, lines: [previewAnswer.lines[0]] }),
      'contacts.import.commit': () =>
        Promise.reject(appError('contacts.import_rejected', { count: 1, rejected: [{ line: 2, problems: [{ column: 'tone', reason: 'invalid_choice', message: 'tone: one of formal, neutral, casual.' }] }] })),
    });
    fireEvent.click(screen.getByTestId('contacts-import'));
    await chooseFile('people.csv', 'value,tone\nada@example.com,shouty\n');
    fireEvent.click(await screen.findByTestId('import-submit'));
    const refused = await screen.findByTestId('import-rejected');
    expect(within(refused).getByTestId('import-rejected-line').textContent).toContain('tone: one of formal, neutral, casual.');
  });

  it('a file over 2 MB is refused before any upload', async () => {
    const calls = renderDialogs({});
    fireEvent.click(screen.getByTestId('contacts-import'));
    await chooseFile('big.csv', `value\n${'x'.repeat(2 * 1024 * 1024)}`);
    expect((await screen.findByTestId('import-file-error')).textContent).toBe(enImportExport.import.tooLarge);
    expect(calls.some((call) => call.path === 'contacts.import.preview')).toBe(false);
  });
});

describe('ContactsImportExport: export', () => {
  it('the download link carries the format and the layer; every member may export the shared cards', async () => {
    renderDialogs({});
    fireEvent.click(screen.getByTestId('contacts-export'));
    const link = await screen.findByTestId('export-download');
    expect(link.getAttribute('href')).toBe('/api/v1/contacts/export.vcf?layer=member');
    fireEvent.click(screen.getByTestId('export-format-csv'));
    fireEvent.change(screen.getByTestId('export-target'), { target: { value: 'shared' } });
    expect(screen.getByTestId('export-download').getAttribute('href')).toBe('/api/v1/contacts/export.csv?layer=shared');
    expect(screen.getByText(enImportExport.export.csvSafety)).toBeTruthy();
  });
});

describe('the dialogs’ texts', () => {
  it('French has every English key', () => {
    const keys = (value: unknown, prefix = ''): string[] =>
      value && typeof value === 'object' ? Object.entries(value).flatMap(([key, inner]) => keys(inner, `${prefix}${key}.`)) : [prefix];
    expect(keys(frImportExport).sort()).toEqual(keys(enImportExport).sort());
  });
});
