// @vitest-environment jsdom
/**
 * Settings → Mailboxes in jsdom over a tRPC client answering from a table of handlers (no server).
 * A refused OAuth start ("an administrator must register…") is about that attempt only: once a mailbox
 * is connected over IMAP the page no longer says it (issue 19 §7).
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createTRPCClient, TRPCClientError, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { en } from '@/app/i18n/en';
import { I18nProvider } from '@/app/i18n/client';
import { TRPCProvider } from '@/app/lib/trpc';
import type { AppRouter } from '@/server/trpc/root';
import { MailboxesView } from './mailboxes-view';

vi.mock('next/navigation', () => ({
  useRouter: () => ({ refresh() {}, replace() {} }),
  usePathname: () => '/settings/mailboxes',
  useSearchParams: () => new URLSearchParams(),
}));

afterEach(cleanup);

type Handler = (input: unknown) => unknown;

function appError(code: string) {
  return new TRPCClientError(code, { result: { error: { message: code, code: -32600, data: { appError: { code, message: code, details: {} } } } } } as never);
}

function renderView(handlers: Record<string, Handler>) {
  const link: TRPCLink<AppRouter> = () => ({ op }) =>
    observable((observer) => {
      const handler = handlers[op.path];
      Promise.resolve()
        .then(() => (handler ? handler(op.input) : Promise.reject(new Error(`No handler for ${op.path}`))))
        .then(
          (data) => {
            observer.next({ result: { type: 'data', data } });
            observer.complete();
          },
          (error: unknown) => observer.error(error instanceof TRPCClientError ? error : TRPCClientError.from(error as Error)),
        );
    });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const trpcClient = createTRPCClient<AppRouter>({ links: [link] });
  render(
    <I18nProvider initialLocale="en">
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          <MailboxesView />
        </TRPCProvider>
      </QueryClientProvider>
    </I18nProvider>,
  );
}

const notConfigured = en.errors.codes['oauth.app_not_configured'];

describe('MailboxesView', () => {
  it('drops the "administrator must register" banner after a successful IMAP connect', async () => {
    renderView({
      'mailboxes.list': () => ({ mailboxes: [] }),
      'oauth.start': () => Promise.reject(appError('oauth.app_not_configured')),
      'mailboxes.connectImap': () => ({ id: '00000000-0000-4000-8000-000000000001', address: 'ada@example.com', created: true }),
    });
    fireEvent.click(await screen.findByRole('button', { name: en.mailboxes.oauthConnect.oauth_provider_a }));
    expect((await screen.findByTestId('oauth-start-error')).textContent).toContain(notConfigured);

    fireEvent.click(screen.getAllByRole('button', { name: en.mailboxes.connectImap })[0]);
    const f = en.mailboxes.connect;
    fireEvent.change(await screen.findByLabelText(f.address), { target: { value: 'ada@example.com' } });
    fireEvent.change(screen.getByLabelText(f.password), { target: { value: 'a password' } });
    fireEvent.change(screen.getByLabelText(f.imapHost), { target: { value: 'imap.example.com' } });
    fireEvent.change(screen.getByLabelText(f.smtpHost), { target: { value: 'smtp.example.com' } });
    fireEvent.click(screen.getByRole('button', { name: f.submit }));

    expect((await screen.findByTestId('mailboxes-notice')).textContent).toContain(en.mailboxes.notices.connected('ada@example.com'));
    await waitFor(() => expect(screen.queryByTestId('oauth-start-error')).toBeNull());
    expect(document.body.textContent).not.toContain(notConfigured);
  });
});
