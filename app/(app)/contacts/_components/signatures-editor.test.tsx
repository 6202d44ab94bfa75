// @vitest-environment jsdom
/**
 * Settings → Signatures' editor in jsdom over a table of handlers: a signature is created with its text
 * (an empty HTML sent as null), edited, and a refusal of the server (the limit) is said in the
 * interface's words; deletion asks first.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { en } from '@/app/i18n/en';
import { SignaturesEditor } from './signatures-editor';
import { renderWithTrpc, trpcAppError, type TrpcHandler } from '@/app/testing/render-with-trpc';

vi.mock('next/navigation', () => ({ useRouter: () => ({ refresh() {}, replace() {} }) }));

afterEach(cleanup);

const appError = trpcAppError;

function renderEditor(handlers: Record<string, TrpcHandler>) {
  renderWithTrpc(<SignaturesEditor />, handlers);
}

const at = '2026-12-01T10:00:00.000Z';
const sales = { id: '00000000-0000-4000-8000-0000000000a1', name: 'Sales', text: 'Sam — Sales', html: null, createdAt: at, updatedAt: at };
const s = en.contacts.signatures;

describe('SignaturesEditor', () => {
  it('says there is none yet, then creates one with its text and no HTML', async () => {
    const created: unknown[] = [];
    renderEditor({
      'contacts.signatures.list': () => ({ signatures: [] }),
      'contacts.signatures.create': (input) => {
        created.push(input);
        return { signature: sales };
      },
    });
    expect(await screen.findByText(s.empty.title)).toBeTruthy();
    fireEvent.click(screen.getByTestId('signature-new'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: s.save }));
    expect(await within(dialog).findByText(s.nameRequired)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(s.name), { target: { value: ' Sales ' } });
    fireEvent.change(within(dialog).getByLabelText(s.text), { target: { value: 'Sam — Sales' } });
    fireEvent.click(within(dialog).getByRole('button', { name: s.save }));
    await waitFor(() => expect(created).toEqual([{ name: 'Sales', text: 'Sam — Sales', html: null }]));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says the limit in the interface’s words', async () => {
    renderEditor({
      'contacts.signatures.list': () => ({ signatures: [sales] }),
      'contacts.signatures.update': () => Promise.reject(appError('contacts.signature_limit_reached')),
    });
    fireEvent.click(await screen.findByRole('button', { name: s.editLabel('Sales') }));
    const dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByLabelText(s.name) as HTMLInputElement).value).toBe('Sales');
    fireEvent.click(within(dialog).getByRole('button', { name: s.save }));
    expect(await within(dialog).findByText(en.errors.codes['contacts.signature_limit_reached'])).toBeTruthy();
  });

  it('asks before deleting', async () => {
    const removed: unknown[] = [];
    renderEditor({
      'contacts.signatures.list': () => ({ signatures: [sales] }),
      'contacts.signatures.delete': (input) => {
        removed.push(input);
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: s.deleteLabel('Sales') }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm.textContent).toContain(s.deleteTitle('Sales'));
    fireEvent.click(within(confirm).getByRole('button', { name: s.delete }));
    await waitFor(() => expect(removed).toEqual([{ id: sales.id }]));
  });
});
