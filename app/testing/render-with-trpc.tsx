/**
 * Component tests over a tRPC client that answers from a table of handlers (no server): each procedure path maps
 * to a function of its input; a missing one rejects, so a test names every call the component makes. The calls
 * are recorded in order, so a test can assert what was sent. With `router`, the tree runs inside an app router
 * context of the test's own (`useRouter` answers it), so the file needs no `vi.mock('next/navigation')` and
 * stays in the shared-modules project.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createTRPCClient, TRPCClientError, type TRPCLink } from '@trpc/client';
import { AppRouterContext, type AppRouterInstance } from 'next/dist/shared/lib/app-router-context.shared-runtime';
import { observable } from '@trpc/server/observable';
import type { ReactElement } from 'react';
import { I18nProvider } from '@/app/i18n/client';
import { TRPCProvider } from '@/app/lib/trpc';
import type { AppRouter } from '@/server/trpc/root';

export type TrpcHandler = (input: unknown) => unknown;

/** An error as the server sends a catalogued one (`describeError` and `appErrorOf` read it). */
export function trpcAppError(code: string, details: Record<string, unknown> = {}) {
  return new TRPCClientError(code, { result: { error: { message: code, code: -32600, data: { appError: { code, message: code, details } } } } } as never);
}

export function renderWithTrpc(ui: ReactElement, handlers: Record<string, TrpcHandler>, options: { locale?: 'en' | 'fr'; router?: AppRouterInstance } = {}) {
  const calls: { path: string; input: unknown }[] = [];
  const link: TRPCLink<AppRouter> = () => ({ op }) =>
    observable((observer) => {
      calls.push({ path: op.path, input: op.input });
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
  const tree = (
    <I18nProvider initialLocale={options.locale ?? 'en'}>
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          {ui}
        </TRPCProvider>
      </QueryClientProvider>
    </I18nProvider>
  );
  render(options.router ? <AppRouterContext.Provider value={options.router}>{tree}</AppRouterContext.Provider> : tree);
  return calls;
}

/** A router for `renderWithTrpc(…, { router })` that records where the view sent the browser (push and replace). */
export function fakeRouter(): AppRouterInstance & { pushed: string[] } {
  const pushed: string[] = [];
  return {
    pushed,
    back() {},
    forward() {},
    refresh() {},
    push(href: string) {
      pushed.push(href);
    },
    replace(href: string) {
      pushed.push(href);
    },
    prefetch() {},
  } as unknown as AppRouterInstance & { pushed: string[] };
}
