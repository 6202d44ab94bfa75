// @vitest-environment jsdom
/**
 * The Support page in jsdom over the shared tRPC harness: the rows with their status chips and markers, the
 * administrator's author on each row, the empty state, an unlinked instance's explanation without forms, and
 * the new request's bounds, submit, server refusal and the way to the new thread.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { en } from '@/app/i18n/en';
import { fr } from '@/app/i18n/fr';
import { fakeRouter, renderWithTrpc, trpcAppError, type TrpcHandler } from '@/app/testing/render-with-trpc';
import { me, overview, summary, thread } from './_testing/fixtures';
import { SupportView } from './support-view';
import type { SupportOverview } from './_lib/api';

afterEach(cleanup);

function renderView(answer: SupportOverview, options: { role?: 'admin' | 'member'; handlers?: Record<string, TrpcHandler>; locale?: 'en' | 'fr' } = {}) {
  const router = fakeRouter();
  const calls = renderWithTrpc(
    <SupportView />,
    { 'auth.me': () => me(options.role ?? 'member'), 'support.overview': () => answer, ...options.handlers },
    { locale: options.locale, router },
  );
  return { calls, router };
}

const statuses = ['received', 'in_study', 'quoted', 'in_progress', 'delivered', 'rejected', 'open', 'closed'] as const;

describe('SupportView', () => {
  it('lists every thread with its status chip, assignee, and the unread and pending markers only where they apply', async () => {
    const rows = statuses.map((status, index) =>
      summary({ status, kind: index < 6 ? 'request' : 'conversation', subject: `Thread ${status}`, unread: status === 'quoted', pending: status === 'received', assigneeName: status === 'in_progress' ? 'Dana (team)' : null }),
    );
    renderView(overview(rows));
    const found = await screen.findAllByTestId('support-thread-row');
    expect(found).toHaveLength(8);
    expect(found.map((row) => within(row).getByTestId('support-status').textContent)).toEqual(['Received', 'In study', 'Quoted', 'In progress', 'Delivered', 'Rejected', 'Open', 'Closed']);
    const row = (status: string) => found[statuses.indexOf(status as (typeof statuses)[number])];
    expect(row('quoted').getAttribute('data-thread-id')).toBe(rows[2].id);
    expect(row('quoted').getAttribute('href')).toBe(`/support/${rows[2].id}`);
    expect(found.filter((item) => within(item).queryByTestId('support-unread'))).toEqual([row('quoted')]);
    expect(found.filter((item) => within(item).queryByTestId('support-pending'))).toEqual([row('received')]);
    expect(within(row('in_progress')).getByTestId('support-assignee').textContent).toBe('Assigned to Dana (team)');
    expect(within(row('open')).getByTestId('support-assignee').textContent).toBe(en.support.unassigned);
    // A member sees their own threads: no author on the rows.
    expect(screen.queryByTestId('support-author')).toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: 'Support' })).toBeTruthy();
    expect(screen.getByTestId('support-synced-at').textContent).toContain('Last exchange with the team:');
  });

  it('names the eight statuses in French too', async () => {
    renderView(overview(statuses.map((status) => summary({ status }))), { locale: 'fr' });
    const chips = (await screen.findAllByTestId('support-status')).map((chip) => chip.textContent);
    expect(chips).toEqual(statuses.map((status) => fr.support.statuses[status]));
    expect(new Set(chips).size).toBe(8);
  });

  it('shows an administrator the author of every row', async () => {
    renderView(overview([summary({ authorName: 'Alex Other', authorMemberId: null }), summary({ authorName: 'Sam Member' })]), { role: 'admin' });
    await waitFor(() => expect(screen.getAllByTestId('support-author')).toHaveLength(2));
    expect(screen.getAllByTestId('support-author').map((cell) => cell.textContent)).toEqual(['From Alex Other', 'From Sam Member']);
  });

  it('says what Support is for when there is no thread yet, and when it never exchanged with the team', async () => {
    renderView(overview([], { syncedAt: null }));
    expect(await screen.findByText(en.support.empty.title)).toBeTruthy();
    expect(screen.getByText(en.support.empty.body)).toBeTruthy();
    expect(screen.getByTestId('support-synced-at').textContent).toBe(en.support.syncedNever);
    expect(screen.getByTestId('support-new-request')).toBeTruthy();
    expect(screen.getByTestId('support-new-conversation')).toBeTruthy();
  });

  it('explains an unlinked instance instead of offering the forms, and keeps its threads readable', async () => {
    renderView(overview([summary({ subject: 'Older request' })], { linked: false }));
    const notice = await screen.findByTestId('support-unlinked');
    expect(notice.textContent).toContain('CONTROL_PLANE_URL');
    expect(notice.textContent).toContain('CONTROL_PLANE_INSTANCE_ID');
    expect(notice.textContent).toContain('CONTROL_PLANE_SECRET');
    expect(screen.queryByTestId('support-new-request')).toBeNull();
    expect(screen.queryByTestId('support-new-conversation')).toBeNull();
    expect(screen.getAllByTestId('support-thread-row')).toHaveLength(1);
  });

  it('refuses an empty or too long request before sending it', async () => {
    const { calls } = renderView(overview([]));
    fireEvent.click(await screen.findByTestId('support-new-request'));
    const dialog = await screen.findByRole('dialog');
    const title = within(dialog).getByLabelText('Title');
    // The dialog opens on its first field.
    await waitFor(() => expect(document.activeElement).toBe(title));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send request' }));
    expect(await within(dialog).findAllByText(en.support.fields.required)).toHaveLength(2);
    fireEvent.change(title, { target: { value: '   ' } });
    fireEvent.change(within(dialog).getByLabelText('What you need'), { target: { value: 'x'.repeat(5001) } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send request' }));
    expect(await within(dialog).findByText(en.support.fields.required)).toBeTruthy();
    expect(within(dialog).getByText(en.support.fields.tooLong(5000))).toBeTruthy();
    // Near the bound, the field counts.
    expect(within(dialog).getByText('5,001 / 5,000')).toBeTruthy();
    fireEvent.change(title, { target: { value: 'y'.repeat(161) } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send request' }));
    expect(await within(dialog).findByText(en.support.fields.tooLong(160))).toBeTruthy();
    expect(calls.filter((call) => call.path === 'support.openRequest')).toHaveLength(0);
  });

  it('sends a request trimmed, then goes to the new thread', async () => {
    const created = thread({ subject: 'Import our invoices', pending: true });
    const { calls, router } = renderView(overview([]), { handlers: { 'support.openRequest': () => created } });
    fireEvent.click(await screen.findByTestId('support-new-request'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Title'), { target: { value: '  Import our invoices ' } });
    fireEvent.change(within(dialog).getByLabelText('What you need'), { target: { value: 'From the accounting tool,\nevery night.' } });
    fireEvent.submit(within(dialog).getByRole('button', { name: 'Send request' }).closest('form')!);
    await waitFor(() => expect(router.pushed).toEqual([`/support/${created.id}`]));
    expect(calls.find((call) => call.path === 'support.openRequest')?.input).toEqual({ title: 'Import our invoices', need: 'From the accounting tool,\nevery night.' });
    // The list (and the navigation's badge) is read again.
    expect(calls.filter((call) => call.path === 'support.overview').length).toBeGreaterThan(1);
  });

  it('shows the server’s refusal of a request in the form and stays on it', async () => {
    const { router } = renderView(overview([]), { handlers: { 'support.openRequest': () => Promise.reject(trpcAppError('support.bad_request')) } });
    fireEvent.click(await screen.findByTestId('support-new-request'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Title'), { target: { value: 'A title' } });
    fireEvent.change(within(dialog).getByLabelText('What you need'), { target: { value: 'A need' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send request' }));
    expect((await within(dialog).findByTestId('support-form-error')).textContent).toBe(en.errors.codes['support.bad_request']);
    expect(router.pushed).toEqual([]);
  });

  it('starts a conversation with its subject and first message', async () => {
    const created = thread({ kind: 'conversation', status: 'open' });
    const { calls, router } = renderView(overview([]), { handlers: { 'support.openConversation': () => created } });
    fireEvent.click(await screen.findByTestId('support-new-conversation'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Subject'), { target: { value: 'A question' } });
    fireEvent.change(within(dialog).getByLabelText('Message'), { target: { value: 'How do I…?' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start conversation' }));
    await waitFor(() => expect(router.pushed).toEqual([`/support/${created.id}`]));
    expect(calls.find((call) => call.path === 'support.openConversation')?.input).toEqual({ subject: 'A question', body: 'How do I…?' });
  });
});
