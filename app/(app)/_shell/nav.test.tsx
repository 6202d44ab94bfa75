// @vitest-environment jsdom
/**
 * The navigation's Support entry over the shared tRPC harness: the reader's unread count in a badge inside the
 * link (absent at zero), read from the Support overview, and the link named "Support" first.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { PathnameContext } from 'next/dist/shared/lib/hooks-client-context.shared-runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeRouter, renderWithTrpc } from '@/app/testing/render-with-trpc';
import { overview, summary } from '../support/_testing/fixtures';
import { SideNav } from './nav';

afterEach(cleanup);

function renderNav(unreadCount: number) {
  return renderWithTrpc(
    <PathnameContext.Provider value="/">
      <SideNav isAdmin={false} />
    </PathnameContext.Provider>,
    { 'support.overview': () => overview([summary({ unread: unreadCount > 0 })], { unreadCount }) },
    { router: fakeRouter() },
  );
}

describe('the Support entry of the navigation', () => {
  it('shows the reader’s unread count inside the Support link', async () => {
    const calls = renderNav(2);
    const badge = await screen.findByTestId('nav-support-unread');
    expect(badge.textContent).toBe('2');
    const link = screen.getByRole('link', { name: /^Support/ });
    expect(link.getAttribute('href')).toBe('/support');
    expect(within(link).getByTestId('nav-support-unread')).toBe(badge);
    expect(calls.map((call) => call.path)).toContain('support.overview');
  });

  it('shows no badge when nothing is unread', async () => {
    const calls = renderNav(0);
    await waitFor(() => expect(calls.map((call) => call.path)).toContain('support.overview'));
    // Let the answer render before asserting the absence.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByRole('link', { name: /^Support/ })).toBeTruthy();
    expect(screen.queryByTestId('nav-support-unread')).toBeNull();
  });
});
