'use client';

/**
 * The builder's access to the API beyond the workflow itself: the node catalogue (palette and forms),
 * recent messages (test message picker), test runs and their live detail.
 */
import { useQueries, useQuery } from '@tanstack/react-query';
import { useI18n } from '@/app/i18n/client';
import { useTRPC, type RouterOutputs } from '@/app/lib/trpc';
import { isInProgress } from '../../../executions/_lib/status';

export type NodeType = RouterOutputs['nodeTypes']['list']['nodeTypes'][number];
export type RecentMessage = RouterOutputs['mail']['messages']['list']['messages'][number];
export type TestRunDetail = RouterOutputs['executions']['detail'];
export type TestRunStep = TestRunDetail['steps'][number];

export function useNodeTypes() {
  const trpc = useTRPC();
  const { locale } = useI18n();
  return useQuery({ ...trpc.nodeTypes.list.queryOptions({ lang: locale === 'fr' ? 'fr' : 'en' }), staleTime: Infinity });
}

export function useRecentMessages(q: string, enabled: boolean) {
  const trpc = useTRPC();
  return useQuery({ ...trpc.mail.messages.list.queryOptions({ limit: 50, ...(q.trim() ? { q: q.trim() } : {}) }), enabled });
}

/** A test run followed until it ends (re-read every second while in progress). */
export function useTestRun(executionId: string | null) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.executions.detail.queryOptions({ id: executionId ?? '' }),
    enabled: executionId !== null,
    refetchInterval: (query) => (query.state.data && !isInProgress(query.state.data.status) ? false : 1_000),
  });
}

export function useBuilderMutations() {
  const trpc = useTRPC();
  return {
    putGraph: trpc.workflows.putGraph.mutationOptions(),
    testRun: trpc.workflows.testRun.mutationOptions(),
    testMessages: trpc.workflows.testMessages.mutationOptions(),
  };
}

/** The subjects of the pinned test messages (at most 20 reads). */
export function usePinnedSubjects(ids: string[]) {
  const trpc = useTRPC();
  const answers = useQueries({ queries: ids.map((id) => ({ ...trpc.mail.messages.get.queryOptions({ id }), staleTime: Infinity, retry: false })) });
  return new Map(ids.map((id, index) => [id, answers[index]?.data?.subject ?? null]));
}

/** The pickers' lists for the generated node forms: the member's mailboxes, tables, connections and workflows. */
export function usePickerQueries() {
  const trpc = useTRPC();
  const options = { staleTime: 60_000, retry: false } as const;
  return {
    mailboxes: useQuery({ ...trpc.mailboxes.list.queryOptions(), ...options }),
    tables: useQuery({ ...trpc.tables.list.queryOptions(), ...options }),
    connections: useQuery({ ...trpc.connections.list.queryOptions({}), ...options }),
    workflows: useQuery({ ...trpc.workflows.list.queryOptions(), ...options }),
  };
}
