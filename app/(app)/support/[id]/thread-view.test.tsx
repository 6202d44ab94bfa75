// @vitest-environment jsdom
/**
 * A support thread in jsdom over the shared tRPC harness: the messages in order with their direction and the
 * pending marker, bodies as plain text, the thread marked read on opening, the composer (Ctrl+Enter sends,
 * the counter near the bound, the answer's pending message shown), no composer on an unlinked instance, the
 * administrator's author line, and the not-found state with its way back.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { en } from '@/app/i18n/en';
import { fakeRouter, renderWithTrpc, trpcAppError, type TrpcHandler } from '@/app/testing/render-with-trpc';
import { me, message, overview, thread } from '../_testing/fixtures';
import type { SupportThread } from '../_lib/api';
import { SupportThreadView } from './thread-view';

afterEach(cleanup);

function renderThread(id: string, handlers: Record<string, TrpcHandler>, options: { role?: 'admin' | 'member'; linked?: boolean } = {}) {
  return renderWithTrpc(
    <SupportThreadView id={id} />,
    { 'auth.me': () => me(options.role ?? 'member'), 'support.overview': () => overview([], { linked: options.linked ?? true }), ...handlers },
    { router: fakeRouter() },
  );
}

const conversation = (): SupportThread =>
  thread({
    kind: 'conversation',
    status: 'open',
    subject: 'How do I connect a second mailbox?',
    assigneeName: 'Dana',
    unread: true,
    messages: [
      message({ direction: 'member', body: 'First line\nsecond line <b>not bold</b>' }),
      message({ direction: 'team', authorName: 'Dana', body: 'Here is how.' }),
      message({ direction: 'member', body: 'Thanks!', pending: true }),
    ],
  });

describe('SupportThreadView', () => {
  it('shows the messages in order, the team’s apart, bodies as plain text, and “Sending…” on the pending one only', async () => {
    const item = conversation();
    renderThread(item.id, { 'support.get': () => item, 'support.read': () => ({ ...item, unread: false }) });
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe(item.subject);
    expect(screen.getByTestId('support-status').textContent).toBe('Open');
    expect(screen.getByTestId('support-assignee').textContent).toBe('Assigned to Dana');
    const messages = screen.getAllByTestId('support-message');
    expect(messages.map((node) => node.getAttribute('data-direction'))).toEqual(['member', 'team', 'member']);
    expect(messages[1].textContent).toContain(en.support.thread.team);
    // Text, never HTML: the tag shows as typed, the line break is kept in the text.
    const body = messages[0].querySelector('p')!;
    expect(body.textContent).toBe('First line\nsecond line <b>not bold</b>');
    expect(body.querySelector('b')).toBeNull();
    expect(messages.map((node) => within(node).queryByTestId('support-message-pending') !== null)).toEqual([false, false, true]);
    expect(within(messages[2]).getByTestId('support-message-pending').textContent).toContain('Sending…');
    // A member sees their own thread: no author line.
    expect(screen.queryByTestId('support-author')).toBeNull();
  });

  it('marks the thread read for the reader on opening', async () => {
    const item = conversation();
    const calls = renderThread(item.id, { 'support.get': () => item, 'support.read': () => ({ ...item, unread: false }) });
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(calls.filter((call) => call.path === 'support.read').map((call) => call.input)).toEqual([{ id: item.id }]));
    // Once: the read's answer says read, so nothing reads it again.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls.filter((call) => call.path === 'support.read')).toHaveLength(1);
  });

  it('marks the thread read again when a team reply arrives while it is open and visible', async () => {
    const item = { ...conversation(), unread: false };
    let reads = 0;
    // The first read's answer already carries a newer team reply (unread again), as a live re-read would.
    const replied = { ...item, unread: true, messages: [...item.messages, message({ direction: 'team', authorName: 'Dana', body: 'One more thing' })] };
    const calls = renderThread(item.id, {
      'support.get': () => item,
      'support.read': () => {
        reads += 1;
        return reads === 1 ? replied : { ...replied, unread: false };
      },
    });
    expect(document.visibilityState).toBe('visible');
    await waitFor(() => expect(calls.filter((call) => call.path === 'support.read')).toHaveLength(2));
    expect(await screen.findByText('One more thing')).toBeTruthy();
  });

  it('clears the pending marker when the thread comes back delivered', async () => {
    const item = conversation();
    const delivered = { ...item, unread: false, pending: false, messages: item.messages.map((entry) => ({ ...entry, pending: false })) };
    let readCalled: () => void = () => {};
    const reading = new Promise<void>((resolve) => (readCalled = resolve));
    // The thread is read again (here by the read mark's answer; live, by the support.thread event) once delivered.
    renderThread(item.id, { 'support.get': () => item, 'support.read': () => reading.then(() => delivered) });
    expect(await screen.findByTestId('support-message-pending')).toBeTruthy();
    readCalled();
    await waitFor(() => expect(screen.queryByTestId('support-message-pending')).toBeNull());
    expect(screen.getAllByTestId('support-message')).toHaveLength(3);
  });

  it('sends a reply with Ctrl+Enter, trimmed, empties the composer and shows the answer’s pending message', async () => {
    const item = { ...conversation(), unread: false };
    const answered = { ...item, pending: true, messages: [...item.messages, message({ body: 'One more question', pending: true })] };
    const calls = renderThread(item.id, { 'support.get': () => item, 'support.read': () => item, 'support.postMessage': () => answered });
    const reply = await screen.findByLabelText('Reply');
    expect(screen.getByRole('button', { name: 'Send' }).hasAttribute('disabled')).toBe(true);
    fireEvent.change(reply, { target: { value: '  One more question  ' } });
    fireEvent.keyDown(reply, { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(calls.find((call) => call.path === 'support.postMessage')?.input).toEqual({ id: item.id, body: 'One more question' }));
    await waitFor(() => expect(screen.getAllByTestId('support-message')).toHaveLength(4));
    expect(within(screen.getAllByTestId('support-message')[3]).getByTestId('support-message-pending')).toBeTruthy();
    expect((reply as HTMLTextAreaElement).value).toBe('');
  });

  it('counts the reply’s characters near the bound, and keeps a plain Enter as a new line', async () => {
    const item = { ...conversation(), unread: false };
    const calls = renderThread(item.id, { 'support.get': () => item, 'support.read': () => item });
    const reply = await screen.findByLabelText('Reply');
    fireEvent.change(reply, { target: { value: 'x'.repeat(4600) } });
    expect(screen.getByText('4,600 / 5,000')).toBeTruthy();
    fireEvent.keyDown(reply, { key: 'Enter' });
    expect(calls.some((call) => call.path === 'support.postMessage')).toBe(false);
  });

  it('shows the server’s refusal of a reply under the composer', async () => {
    const item = { ...conversation(), unread: false };
    renderThread(item.id, { 'support.get': () => item, 'support.read': () => item, 'support.postMessage': () => Promise.reject(trpcAppError('support.not_linked')) });
    fireEvent.change(await screen.findByLabelText('Reply'), { target: { value: 'Hello' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect((await screen.findByTestId('support-send-error')).textContent).toBe(en.errors.codes['support.not_linked']);
  });

  it('has no composer on an unlinked instance, and says why', async () => {
    const item = conversation();
    renderThread(item.id, { 'support.get': () => item, 'support.read': () => item }, { linked: false });
    expect(await screen.findByTestId('support-unlinked')).toBeTruthy();
    expect(screen.queryByLabelText('Reply')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    expect(screen.getAllByTestId('support-message')).toHaveLength(3);
  });

  it('names the author for an administrator', async () => {
    const item = { ...conversation(), authorName: 'Alex Other' };
    renderThread(item.id, { 'support.get': () => item, 'support.read': () => item }, { role: 'admin' });
    expect((await screen.findByTestId('support-author')).textContent).toBe('Opened by Alex Other');
  });

  it('answers an unknown thread with a not-found state and the way back', async () => {
    renderThread('nope', { 'support.get': () => Promise.reject(trpcAppError('support.not_found')), 'support.read': () => Promise.reject(trpcAppError('support.not_found')) });
    expect(await screen.findByText(en.support.thread.notFound.title)).toBeTruthy();
    const back = screen.getAllByRole('link', { name: en.support.thread.back });
    expect(back.length).toBeGreaterThan(0);
    expect(back.every((link) => link.getAttribute('href') === '/support')).toBe(true);
  });
});
