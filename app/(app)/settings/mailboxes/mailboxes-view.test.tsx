// @vitest-environment jsdom
/**
 * Settings → Mailboxes in jsdom over a tRPC client answering from a table of handlers (no server).
 * A refused OAuth start ("an administrator must register…") is about that attempt only: once a mailbox
 * is connected over IMAP the page no longer says it (issue 19 §7).
 */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { en } from '@/app/i18n/en';
import { MailboxesView } from './mailboxes-view';
import { renderWithTrpc, trpcAppError, type TrpcHandler } from '@/app/testing/render-with-trpc';

vi.mock('next/navigation', () => ({
  useRouter: () => ({ refresh() {}, replace() {} }),
  usePathname: () => '/settings/mailboxes',
  useSearchParams: () => new URLSearchParams(),
}));

afterEach(cleanup);

const appError = trpcAppError;

function renderView(handlers: Record<string, TrpcHandler>) {
  renderWithTrpc(<MailboxesView />, handlers);
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
