// @vitest-environment jsdom
/**
 * The mailbox health panel in jsdom over a tRPC client answering from a handler (no server): each
 * mailbox's state badge, last sync as "… ago", watch mode and alive, stall reason, last error, OAuth
 * expiry and dispatch lag; one line per mailbox in the compact form; French.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { createTRPCClient, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { I18nProvider } from '@/app/i18n/client';
import type { Locale } from '@/app/i18n';
import { TRPCProvider } from '@/app/lib/trpc';
import type { AppRouter } from '@/server/trpc/root';
import { MailboxHealthPanel, relativeTime } from './mailbox-health-panel';

vi.mock('next/navigation', () => ({
  useRouter: () => ({ refresh() {}, replace() {} }),
  usePathname: () => '/settings/mailboxes',
  useSearchParams: () => new URLSearchParams(),
}));

afterEach(cleanup);

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

function answer() {
  return {
    mailboxes: [
      {
        mailboxId: 'm1',
        memberId: 'u1',
        address: 'ok@example.test',
        provider: 'imap',
        status: 'active',
        state: 'healthy',
        lastSuccessfulSyncAt: minutesAgo(3),
        lastDeltaAt: minutesAgo(3),
        watch: { mode: 'idle', alive: true, lastHeartbeatAt: minutesAgo(0.5) },
        lastError: null,
        oauth: null,
        dispatchLag: { pending: 0, oldestEnqueuedAt: null },
        bodiesPending: 0,
        stalled: null,
      },
      {
        mailboxId: 'm2',
        memberId: 'u1',
        address: 'quiet@example.test',
        provider: 'mail_provider_a',
        status: 'active',
        state: 'stalled',
        lastSuccessfulSyncAt: minutesAgo(45),
        lastDeltaAt: null,
        watch: { mode: 'provider_history', alive: false, lastHeartbeatAt: minutesAgo(40) },
        lastError: { kind: 'timeout', at: minutesAgo(10) },
        oauth: { expiresAt: minutesAgo(-30 * 24 * 60), lastRefreshedAt: minutesAgo(50) },
        dispatchLag: { pending: 2, oldestEnqueuedAt: minutesAgo(12) },
        bodiesPending: 0,
        stalled: { since: minutesAgo(5), reason: 'watch_silent' },
      },
      {
        mailboxId: 'm3',
        memberId: 'u1',
        address: 'large@example.test',
        provider: 'imap',
        status: 'active',
        state: 'syncing',
        lastSuccessfulSyncAt: minutesAgo(0),
        lastDeltaAt: minutesAgo(0),
        watch: { mode: 'idle', alive: true, lastHeartbeatAt: minutesAgo(0) },
        lastError: null,
        oauth: null,
        dispatchLag: { pending: 0, oldestEnqueuedAt: null },
        bodiesPending: 4210,
        stalled: null,
      },
    ],
  };
}

function renderPanel(options: { compact?: boolean; locale?: Locale } = {}) {
  const link: TRPCLink<AppRouter> = () => ({ op }) =>
    observable((observer) => {
      if (op.path !== 'mailboxes.health') {
        observer.error(new Error(`No handler for ${op.path}`) as never);
        return;
      }
      void Promise.resolve().then(() => {
        observer.next({ result: { type: 'data', data: answer() } });
        observer.complete();
      });
    });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const trpcClient = createTRPCClient<AppRouter>({ links: [link] });
  render(
    <I18nProvider initialLocale={options.locale ?? 'en'}>
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          <MailboxHealthPanel compact={options.compact} />
        </TRPCProvider>
      </QueryClientProvider>
    </I18nProvider>,
  );
}

describe('MailboxHealthPanel', () => {
  it('shows per mailbox its state, last sync, watch, stall, last error, OAuth expiry, dispatch lag and the messages its first sync has still to read', async () => {
    renderPanel();
    const rows = await screen.findAllByTestId('mailbox-health-row', {}, { timeout: 10_000 });
    expect(rows).toHaveLength(3);
    const [ok, quiet, large] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(ok).getByText('Healthy')).toBeTruthy();
    expect(within(ok).getAllByText('3 min ago')).toHaveLength(2);
    expect(within(ok).getByText('Push (IMAP IDLE) · alive')).toBeTruthy();
    expect(within(ok).getByText('Nothing waiting')).toBeTruthy();
    expect(within(quiet).getByText('Stalled')).toBeTruthy();
    expect(within(quiet).getByText(/The watch for new mail stopped answering/)).toBeTruthy();
    expect(within(quiet).getByText('Provider history · silent')).toBeTruthy();
    expect(within(quiet).getByText(/took too long to answer/)).toBeTruthy();
    expect(within(quiet).getByText('Access token expires')).toBeTruthy();
    expect(within(quiet).getByText(/^2 messages, oldest 12 min/)).toBeTruthy();
    // A large mailbox's body pass: how many messages it has still to read; none shown where there are none.
    expect(within(large).getByText('First sync')).toBeTruthy();
    expect(within(large).getByTestId('mailbox-health-bodies').textContent).toBe('4,210 still to read');
    expect(within(ok).queryByTestId('mailbox-health-bodies')).toBeNull();
  });

  it('has a compact form with one line per mailbox, and speaks French', async () => {
    renderPanel({ compact: true, locale: 'fr' });
    const rows = await screen.findAllByTestId('mailbox-health-row', {}, { timeout: 10_000 });
    expect(rows).toHaveLength(3);
    expect(screen.getByText('État des boîtes')).toBeTruthy();
    expect(within(rows[2]!).getByTestId('mailbox-health-bodies').textContent?.replace(/\s/g, ' ')).toBe('lecture de 4 210 messages');
    expect(within(rows[1]!).getByText('Muette')).toBeTruthy();
    expect(within(rows[1]!).getByText('2 messages')).toBeTruthy();
    expect(within(rows[0]!).getByText(/^synchro il y a 3/)).toBeTruthy();
  });

  it('says times relative to now in the reader’s language', () => {
    const now = Date.parse('2026-06-01T12:00:00Z');
    expect(relativeTime('2026-06-01T11:57:00Z', 'en', now, 'just now')).toBe('3 min ago');
    expect(relativeTime('2026-06-01T11:59:50Z', 'en', now, 'just now')).toBe('just now');
    expect(relativeTime('2026-06-01T09:00:00Z', 'fr', now, 'à l’instant').replace(/\s/g, ' ')).toBe('il y a 3 h');
  });
});
