// @vitest-environment jsdom
/**
 * The Support views live, over the shell's live updates and a socket of the test's own: a `support.thread`
 * event re-reads the list (a reply's unread marker appears) and the open thread (its pending marker clears
 * once delivered), which is then marked read again.
 */
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RealtimeTestProvider } from '@/app/lib/realtime';
import { fakeRouter, renderWithTrpc } from '@/app/testing/render-with-trpc';
import { useLiveUpdates } from '../_shell/_lib/live-api';
import { me, message, overview, summary, thread } from './_testing/fixtures';
import { SupportThreadView } from './[id]/thread-view';
import { SupportView } from './support-view';
import type { SupportOverview, SupportThread } from './_lib/api';

afterEach(cleanup);

type Listener = (payload: unknown) => void;

function fakeSocket() {
  const listeners = new Map<string, Set<Listener>>();
  const socket = {
    on(event: string, listener: Listener) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(listener);
      return socket;
    },
    off(event: string, listener: Listener) {
      listeners.get(event)?.delete(listener);
      return socket;
    },
    emit(event: string, payload: unknown) {
      listeners.get(event)?.forEach((listener) => listener(payload));
    },
  };
  return socket;
}

function Live() {
  useLiveUpdates();
  return null;
}

describe('Support, live', () => {
  it('re-reads the list on support.thread: a team reply shows its unread marker', async () => {
    const socket = fakeSocket();
    const row = summary({ subject: 'Import our invoices' });
    let answer: SupportOverview = overview([row]);
    renderWithTrpc(
      <RealtimeTestProvider socket={socket as never}>
        <Live />
        <SupportView />
      </RealtimeTestProvider>,
      { 'auth.me': () => me('member'), 'support.overview': () => answer },
      { router: fakeRouter() },
    );
    await screen.findByTestId('support-thread-row');
    expect(screen.queryByTestId('support-unread')).toBeNull();
    answer = overview([{ ...row, unread: true, status: 'quoted', messageCount: 2 }]);
    socket.emit('support.thread', { threadId: row.id });
    expect(await screen.findByTestId('support-unread')).toBeTruthy();
    expect(screen.getByTestId('support-status').textContent).toBe('Quoted');
  });

  it('re-reads the open thread on support.thread: the delivered message loses “Sending…”, a team reply is read', async () => {
    const socket = fakeSocket();
    let current: SupportThread = thread({ pending: true, messages: [message({ body: 'Please help', pending: true })] });
    let reads = 0;
    renderWithTrpc(
      <RealtimeTestProvider socket={socket as never}>
        <Live />
        <SupportThreadView id={current.id} />
      </RealtimeTestProvider>,
      {
        'auth.me': () => me('member'),
        'support.overview': () => overview([]),
        'support.get': () => current,
        'support.read': () => {
          reads += 1;
          current = { ...current, unread: false };
          return current;
        },
      },
      { router: fakeRouter() },
    );
    expect(await screen.findByTestId('support-message-pending')).toBeTruthy();
    await waitFor(() => expect(reads).toBe(1));
    // Delivered, and the team answered: the event says which thread changed.
    current = { ...current, pending: false, unread: true, messages: [message({ body: 'Please help' }), message({ direction: 'team', authorName: 'Dana', body: 'On it.' })] };
    socket.emit('support.thread', { threadId: current.id });
    expect(await screen.findByText('On it.')).toBeTruthy();
    expect(screen.queryByTestId('support-message-pending')).toBeNull();
    // Open and visible: the reply is marked read at once.
    await waitFor(() => expect(reads).toBe(2));
  });
});
