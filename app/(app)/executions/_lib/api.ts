'use client';

/**
 * The executions section's access to the API (runs, their detail, incidents): every tRPC call about
 * executions goes through this file. Live events refresh these queries from the shell
 * (../../_shell/_lib/live-api.ts).
 */
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC, type RouterOutputs } from '@/app/lib/trpc';
import { isInProgress } from './status';

export type Execution = RouterOutputs['executions']['list']['executions'][number];
export type ExecutionDetail = RouterOutputs['executions']['detail'];
export type Step = ExecutionDetail['steps'][number];
export type Attempt = Step['attempts'][number];
export type Incident = RouterOutputs['executions']['incidents']['list']['items'][number];
export type ReplayAnswer = RouterOutputs['executions']['replay'];

export const executionPageSize = 50;

export interface ExecutionFilters {
  workflowId?: string;
  status?: 'queued' | 'running' | 'waiting' | 'succeeded' | 'failed' | 'cancelled';
  mailboxId?: string;
  simulated?: 'true' | 'false';
  effects?: 'with' | 'without';
  q?: string;
  loopIterations?: 'true' | 'false';
  /** The time window on the run's creation, `[from, to)`. */
  from?: string;
  to?: string;
}

export function useExecutionPages(filters: ExecutionFilters) {
  const trpc = useTRPC();
  return useInfiniteQuery(
    trpc.executions.list.infiniteQueryOptions(
      { ...filters, limit: executionPageSize },
      { getNextPageParam: (page) => page.nextCursor ?? undefined, staleTime: 10_000 },
    ),
  );
}

/**
 * One run with its steps. Live events refresh it; while it is in progress and the live channel is
 * down, it is also re-read every few seconds.
 */
export function useExecution(id: string, live: boolean) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.executions.detail.queryOptions({ id }),
    refetchInterval: (query) => (!live && query.state.data && isInProgress(query.state.data.status) ? 5_000 : false),
  });
}

/**
 * The graph the run followed: its version's (a published version is readable by id); a test run's
 * snapshot is not, so the workflow's draft stands in for it (test runs run the draft).
 */
export function useExecutionGraph(execution: { workflowId: string; workflowVersionId: string; simulated: boolean; workflowName: string } | undefined) {
  const trpc = useTRPC();
  const known = Boolean(execution && execution.workflowName);
  const version = useQuery({
    ...trpc.workflows.version.queryOptions({ id: execution?.workflowId ?? '', versionId: execution?.workflowVersionId ?? '' }),
    enabled: known && !execution?.simulated && !(execution && 'graph' in execution),
    retry: false,
    staleTime: Infinity,
  });
  const draft = useQuery({
    ...trpc.workflows.get.queryOptions({ id: execution?.workflowId ?? '' }),
    enabled: known && (Boolean(execution?.simulated) || version.isError),
    retry: false,
  });
  // A detail that carries its version's graph is exact (a test run's snapshot included).
  const own = execution && 'graph' in execution ? (execution as { graph?: unknown }).graph : undefined;
  if (own) return { graph: own, pending: false };
  if (version.data) return { graph: version.data.version.graph as unknown, pending: false };
  if (draft.data) return { graph: draft.data.workflow.graph as unknown, pending: false };
  return { graph: null, pending: known && (version.isLoading || draft.isLoading) };
}

export function useIncidentPages(unacknowledged: boolean) {
  const trpc = useTRPC();
  return useInfiniteQuery(
    trpc.executions.incidents.list.infiniteQueryOptions(
      { limit: executionPageSize, ...(unacknowledged ? { unacknowledged: 'true' as const } : {}) },
      { getNextPageParam: (page) => page.nextCursor ?? undefined, staleTime: 10_000 },
    ),
  );
}

/** Re-reads the incidents lists. */
export function useRefreshIncidents() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries(trpc.executions.incidents.list.infiniteQueryFilter());
}

export function useExecutionMutations() {
  const trpc = useTRPC();
  return {
    cancel: trpc.executions.cancel.mutationOptions(),
    replay: trpc.executions.replay.mutationOptions(),
    acknowledge: trpc.executions.incidents.acknowledge.mutationOptions(),
  };
}
