'use client';

/** Client-side providers of every page: language, TanStack Query and the tRPC client. */
import './zod-jitless';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { useState, type ReactNode } from 'react';
import type { AppRouter } from '@/server/trpc/root';
import { I18nProvider } from '@/app/i18n/client';
import type { Locale } from '@/app/i18n';
import { appErrorOf } from './errors';
import { TRPCProvider } from './trpc';

/** Pages that work without a session; elsewhere an ended session sends the member to sign in. */
const publicPaths = ['/login', '/invitations/accept'];

function onUnauthenticated(error: unknown) {
  if (appErrorOf(error)?.code !== 'auth.unauthenticated') return;
  if (publicPaths.some((path) => window.location.pathname.startsWith(path))) return;
  window.location.replace('/login');
}

function makeQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({ onError: onUnauthenticated }),
    mutationCache: new MutationCache({ onError: onUnauthenticated }),
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        // Client errors (4xx) will not fix themselves; retry only what may be transient.
        retry: (failureCount, error) => {
          const status = (error as { data?: { httpStatus?: number } }).data?.httpStatus;
          if (status && status >= 400 && status < 500) return false;
          return failureCount < 2;
        },
      },
    },
  });
}

export function Providers({ locale, children }: { locale: Locale; children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(() =>
    // The server refuses batches of more than 20 calls (maxBatchCalls in server/http/trpc-handler.ts).
    createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: '/api/trpc', maxItems: 10 })] }),
  );
  return (
    <I18nProvider initialLocale={locale}>
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          {children}
        </TRPCProvider>
      </QueryClientProvider>
    </I18nProvider>
  );
}
