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
export type UndoSummary = NonNullable<ExecutionDetail['undo']>;
export type UndoPreview = RouterOutputs['executions']['undo']['preview'];
export type UndoPreviewItem = UndoPreview['items'][number];
export type UndoResult = RouterOutputs['executions']['undo']['run'];
export type UndoResultItem = UndoResult['items'][number];
export type UndoSentItem = UndoPreview['sent'][number];
export type BulkUndoAnswer = RouterOutputs['executions']['undo']['workflow'];

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
 * down, it is also re-read every few seconds, and while its mailbox changes are being undone (no live
 * event tells when an undo ends).
 */
export function useExecution(id: string, live: boolean) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.executions.detail.queryOptions({ id }),
    refetchInterval: (query) => {
      const data = query.state.data;
      if (!data) return false;
      return (!live && isInProgress(data.status)) || data.undo?.status === 'running' ? 5_000 : false;
    },
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

/**
 * Undoing runs' mailbox changes: the preview and the undo of one run (its page), the bulk undo of a
 * workflow's runs in a window. An undo re-reads the run (its detail carries the undo summary) and the
 * lists; the mailbox views follow through the live events the webmail's actions emit.
 */
export function useUndoMutations() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries(trpc.executions.detail.pathFilter());
    void queryClient.invalidateQueries(trpc.executions.list.pathFilter());
  };
  return {
    preview: trpc.executions.undo.preview.mutationOptions(),
    undo: trpc.executions.undo.run.mutationOptions({ onSettled: refresh }),
    bulk: trpc.executions.undo.workflow.mutationOptions({ onSettled: (answer) => (answer && !answer.dryRun ? refresh() : undefined) }),
  };
}
