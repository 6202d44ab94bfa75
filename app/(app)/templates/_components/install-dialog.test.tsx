// @vitest-environment jsdom
/**
 * Installing a template that needs a table (issue 19 §2), in jsdom over a tRPC client answering from
 * a table of handlers: the dialog shows the table's columns and their types, offers to create it (an
 * administrator) or to use an existing table, sends the choice, and puts a `templates.table_mismatch`
 * refusal in the member's words, naming the column.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Template } from '../_lib/api';
import { InstallTemplateDialog } from './install-dialog';
import { renderWithTrpc, trpcAppError } from '@/app/testing/render-with-trpc';

const push = vi.fn();
vi.mock('next/navigation', () => ({ useRouter: () => ({ push, refresh() {} }) }));

afterEach(cleanup);

const template: Template = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Extract invoices into a table',
  description: 'Invoices into a table.',
  category: 'extraction',
  enabled: true,
  nodeTypes: ['mail.label@1', 'tables.upsert@1', 'trigger.mail@1'],
  requiresProviders: ['mail'],
  createdBy: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  installCount: 0,
  tables: [
    {
      slug: 'invoices',
      name: 'Invoices',
      description: 'One row per invoice.',
      columns: [
        { key: 'invoice', label: 'Invoice', type: 'text', isKey: true, alsoFits: [], optional: false },
        { key: 'amount', label: 'Amount', type: 'number', isKey: false, alsoFits: ['text'], optional: false },
      ],
    },
  ],
};

const table = (id: string, slug: string, name: string) => ({ id, slug, name, description: null, columns: [], keyUnique: true, rowCount: 0, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' });

const refusal = trpcAppError;

function renderDialog(handlers: Record<string, (input: unknown) => unknown>, options: { isAdmin: boolean; locale?: 'en' | 'fr' }) {
  return renderWithTrpc(<InstallTemplateDialog template={template} isAdmin={options.isAdmin} onOpenChange={() => {}} />, handlers, { locale: options.locale ?? 'en' });
}

const installs = (calls: { path: string; input: unknown }[]) => calls.filter((call) => call.path === 'templates.install').map((call) => call.input);
const submit = () => fireEvent.submit(within(screen.getByRole('dialog')).getByRole('button', { name: /^(Install|Installer)$/ }).closest('form')!);

describe('InstallTemplateDialog: a template that needs a table', () => {
  it('shows the table’s columns and their types; an administrator creates it by default', async () => {
    const calls = renderDialog({ 'tables.list': () => ({ tables: [] }), 'templates.install': () => ({ workflowId: '00000000-0000-4000-8000-000000000002' }) }, { isAdmin: true });
    const columns = await screen.findByRole('list', { name: 'Columns of the table Invoices' });
    expect(within(columns).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Invoice · Text, key', 'Amount · Number (or text)']);
    expect((screen.getByRole('radio', { name: 'Create the table “Invoices” with these columns' }) as HTMLInputElement).checked).toBe(true);
    submit();
    await waitFor(() => expect(installs(calls)).toEqual([{ id: template.id, tables: [{ slug: 'invoices', use: 'create' }] }]));
  });

  it('a member uses an existing table (the team’s table of that name first); creating is not offered to them', async () => {
    const calls = renderDialog(
      {
        'tables.list': () => ({ tables: [table('t-1', 'factures', 'Factures'), table('t-2', 'invoices', 'Invoices 2025')] }),
        'templates.install': () => ({ workflowId: '00000000-0000-4000-8000-000000000002' }),
      },
      { isAdmin: false },
    );
    const create = (await screen.findByRole('radio', { name: 'Create the table “Invoices” with these columns' })) as HTMLInputElement;
    expect(create.disabled).toBe(true);
    expect(screen.getByText('Only an administrator can create a table: use an existing one, or ask an administrator.')).toBeTruthy();
    const select = screen.getByRole('combobox', { name: 'Existing table' }) as HTMLSelectElement;
    expect(select.value).toBe('t-2');
    fireEvent.change(select, { target: { value: 't-1' } });
    submit();
    await waitFor(() => expect(installs(calls)).toEqual([{ id: template.id, tables: [{ slug: 'invoices', use: 'existing', tableId: 't-1' }] }]));
  });

  it('a table that does not fit: the refusal names the column, in the member’s language', async () => {
    for (const [locale, sentence] of [
      ['en', 'The column “Amount” of the table “Factures” holds date: the template writes number / text there.'],
      ['fr', 'La colonne « Amount » de la table « Factures » contient date : le modèle y écrit nombre / texte.'],
    ] as const) {
      renderDialog(
        {
          'tables.list': () => ({ tables: [table('t-1', 'factures', 'Factures')] }),
          'templates.install': () => {
            throw refusal('templates.table_mismatch', { table: 'factures', column: 'amount', reason: 'wrong_type', expected: ['number', 'text'], actual: 'date' });
          },
        },
        { isAdmin: false, locale },
      );
      await screen.findByRole('combobox');
      submit();
      expect((await screen.findByTestId('install-template-error')).textContent).toBe(sentence);
      cleanup();
    }
  });
});
