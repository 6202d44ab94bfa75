// @vitest-environment jsdom
/**
 * Admin → Members in jsdom over a tRPC client answering from a table of handlers (no server).
 * Deactivate is not offered on one's own account (the service refuses it with 409
 * governance.self_target: server/domains/members/members.int.test.ts); other active members keep it.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { createTRPCClient, TRPCClientError, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { en } from '@/app/i18n/en';
import { I18nProvider } from '@/app/i18n/client';
import { TRPCProvider, type Member } from '@/app/lib/trpc';
import type { AppRouter } from '@/server/trpc/root';
import { MembersSection } from './members-section';

vi.mock('next/navigation', () => ({ useRouter: () => ({ refresh() {}, replace() {} }) }));

afterEach(cleanup);

function member(id: string, name: string, role: Member['role']): Member {
  return {
    id,
    email: `${name.toLowerCase()}@example.com`,
    name,
    role,
    status: 'active',
    mailboxCount: 0,
    publishedWorkflowCount: 0,
    createdAt: '2026-11-24T10:00:00.000Z',
  };
}

const ada = member('00000000-0000-4000-8000-000000000001', 'Ada', 'admin');
const grace = member('00000000-0000-4000-8000-000000000002', 'Grace', 'member');

function renderSection(handlers: Record<string, () => unknown>) {
  const link: TRPCLink<AppRouter> = () => ({ op }) =>
    observable((observer) => {
      const handler = handlers[op.path];
      Promise.resolve()
        .then(() => (handler ? handler() : Promise.reject(new Error(`No handler for ${op.path}`))))
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
          <MembersSection />
        </TRPCProvider>
      </QueryClientProvider>
    </I18nProvider>,
  );
}

describe('MembersSection', () => {
  it('does not offer Deactivate on one’s own account, and offers it on other active members', async () => {
    renderSection({ 'auth.me': () => ({ member: ada }), 'members.list': () => ({ members: [ada, grace] }) });
    expect(await screen.findByRole('button', { name: en.members.deactivateLabel(grace.name) })).toBeTruthy();
    // The "You" badge shows once the signed-in member is known: only then is the row known to be one's own.
    await screen.findByText(en.common.you);
    expect(screen.queryByRole('button', { name: en.members.deactivateLabel(ada.name) })).toBeNull();
  });
});
