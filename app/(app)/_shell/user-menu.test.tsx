// @vitest-environment jsdom
/**
 * The theme switch of the user menu (issue 19 §7): system, light or dark, applied at once to the
 * page (`data-theme` on the root element, which globals.css reads), remembered in a cookie the server
 * renders the next page with, and followed by the canvas's minimap and zoom controls.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpLink } from '@trpc/client';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ReactFlowProvider } from '@xyflow/react';
import type { ReactElement } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { I18nProvider } from '@/app/i18n/client';
import { TRPCProvider, type Member } from '@/app/lib/trpc';
import type { AppRouter } from '@/server/trpc/root';
import { GraphCanvas } from '../workflows/_components/graph-canvas';
import { UserMenu } from './user-menu';

vi.mock('next/navigation', () => ({ useRouter: () => ({ refresh() {} }) }));

beforeAll(() => {
  // React Flow measures its pane; jsdom has no layout.
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
  window.matchMedia ??= ((query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {} })) as never;
});

afterEach(() => {
  cleanup();
  delete document.documentElement.dataset.theme;
  document.cookie = 'theme=; path=/; max-age=0';
});

const member = { id: '1b4e28ba-2fa1-41d2-883f-0016d3cca427', name: 'Ann Example', email: 'ann@example.com', role: 'member' } as Member;

function renderWithProviders(ui: ReactElement, locale: 'en' | 'fr' = 'en') {
  const queryClient = new QueryClient();
  // Never called: choosing a theme asks nothing of the server.
  const trpcClient = createTRPCClient<AppRouter>({ links: [httpLink({ url: 'http://127.0.0.1:9/api/trpc' })] });
  return render(
    <I18nProvider initialLocale={locale}>
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          {ui}
        </TRPCProvider>
      </QueryClientProvider>
    </I18nProvider>,
  );
}

function openMenu() {
  const trigger = screen.getByRole('button', { name: /Ann Example/ });
  fireEvent.keyDown(trigger, { key: 'Enter' });
}

describe('theme switch', () => {
  it('The user menu offers a theme switch (system, light, dark) and applies the choice to the page', () => {
    renderWithProviders(<UserMenu member={member} onSignOutError={() => {}} />);
    openMenu();
    const choices = screen.getAllByRole('menuitemradio').filter((item) => ['System', 'Light', 'Dark'].includes(item.textContent ?? ''));
    expect(choices.map((item) => item.textContent)).toEqual(['System', 'Light', 'Dark']);
    expect(screen.getByRole('menuitemradio', { name: 'System' }).getAttribute('aria-checked')).toBe('true');

    fireEvent.click(screen.getByRole('menuitemradio', { name: 'Dark' }));
    expect(document.documentElement.dataset.theme).toBe('dark');
  });

  it('The theme is remembered: the choice is a cookie, and System removes the forced theme', async () => {
    renderWithProviders(<UserMenu member={member} onSignOutError={() => {}} />, 'fr');
    openMenu();
    fireEvent.click(screen.getByRole('menuitemradio', { name: 'Clair' }));
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(document.cookie).toContain('theme=light');
    // The menu reads the page's theme (a MutationObserver: its callback is a microtask).
    await act(async () => {});

    if (!screen.queryByRole('menuitemradio', { name: 'Clair' })) openMenu();
    expect(screen.getByRole('menuitemradio', { name: 'Clair' }).getAttribute('aria-checked')).toBe('true');
    fireEvent.click(screen.getByRole('menuitemradio', { name: 'Système' }));
    expect(document.documentElement.dataset.theme).toBeUndefined();
    expect(document.cookie).toContain('theme=system');
  });

  it('The canvas follows the theme: React Flow draws in dark once dark is chosen', async () => {
    document.documentElement.dataset.theme = 'light';
    const graph = { nodes: [{ id: 'a', type: 'logic.if', version: 2, name: 'If', params: {}, position: { x: 0, y: 0 } }], connections: [] };
    const { container } = renderWithProviders(
      <ReactFlowProvider>
        <GraphCanvas graph={graph as never} label="Graph" />
      </ReactFlowProvider>,
    );
    const flow = () => container.querySelector('.react-flow');
    expect(flow()?.classList.contains('light')).toBe(true);
    await act(async () => {
      document.documentElement.dataset.theme = 'dark';
      await Promise.resolve();
    });
    expect(flow()?.classList.contains('dark')).toBe(true);
  });
});
