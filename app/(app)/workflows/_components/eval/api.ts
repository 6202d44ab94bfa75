'use client';

/**
 * Evaluation runs' access to the API: the panel's tRPC calls go through this file only. A run is
 * polled every 1.5 s while it is queued or running (the `eval.progress` live event refreshes it
 * sooner when the socket is up).
 */
import { useEffect, useRef } from 'react';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRealtimeEvent } from '@/app/lib/realtime';
import { useTRPC, useTRPCClient, type RouterOutputs } from '@/app/lib/trpc';
import { useSaveDraft } from '../../[id]/builder/draft-saver';
import { withTriggerOption } from './summary';

export type EvalRun = RouterOutputs['evalRuns']['get']['evalRun'];
export type EvalCase = RouterOutputs['evalRuns']['cases']['cases'][number];

export const evalPollMs = 1_500;
export const evalCasesPageSize = 50;

export const isEvalActive = (run: Pick<EvalRun, 'status'> | null | undefined) => run?.status === 'queued' || run?.status === 'running';

/** The workflow's latest evaluation (or null). */
export function useLatestEvalRun(workflowId: string) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.evalRuns.list.queryOptions({ id: workflowId, limit: 1 }),
    select: (answer) => answer.evalRuns[0] ?? null,
    refetchInterval: (query) => (isEvalActive(query.state.data?.evalRuns[0]) ? evalPollMs : false),
  });
}

/**
 * The run's cases, page by page. `version` (the run's status and cases done) re-reads the pages
 * loaded whenever the run moves, so the last cases appear with the run's end rather than a poll later.
 */
export function useEvalCases(evalRunId: string | null, changedOnly: boolean, version: string) {
  const trpc = useTRPC();
  const pages = useInfiniteQuery({
    ...trpc.evalRuns.cases.infiniteQueryOptions(
      { id: evalRunId ?? '', limit: evalCasesPageSize, ...(changedOnly ? { changed: 'true' as const } : {}) },
      { getNextPageParam: (page) => page.nextCursor ?? undefined },
    ),
    enabled: Boolean(evalRunId),
  });
  const { refetch } = pages;
  const seen = useRef(version);
  useEffect(() => {
    if (seen.current === version) return;
    seen.current = version;
    void refetch();
  }, [version, refetch]);
  return pages;
}

/** Start and stop; both refresh the workflow's runs and the cases. */
export function useEvalMutations(workflowId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries(trpc.evalRuns.list.queryFilter({ id: workflowId })),
      queryClient.invalidateQueries(trpc.evalRuns.cases.infiniteQueryFilter()),
    ]);
  return {
    start: useMutation({ ...trpc.evalRuns.start.mutationOptions(), onSettled: refresh }),
    cancel: useMutation({ ...trpc.evalRuns.cancel.mutationOptions(), onSettled: refresh }),
  };
}

/** Re-reads on the live event of one of this workflow's evaluations. */
export function useEvalLiveUpdates(workflowId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  useRealtimeEvent('eval.progress', (payload) => {
    if (payload.workflowId !== workflowId) return;
    void queryClient.invalidateQueries(trpc.evalRuns.list.queryFilter({ id: workflowId }));
    if (payload.evalRunId) void queryClient.invalidateQueries(trpc.evalRuns.cases.infiniteQueryFilter({ id: payload.evalRunId }));
  });
}

/**
 * The one-click change of a run's reasons summary: turns a mail trigger option on in the draft, as
 * any draft edit does (PUT /api/v1/workflows/{id}/graph with the revision read, so a concurrent edit
 * is a 409 rather than lost). The builder's pending edit is saved first.
 */
export function useIncludeInDraft(workflowId: string) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const saveDraft = useSaveDraft();
  return useMutation({
    mutationFn: async (option: string) => {
      if (!(await saveDraft())) throw new Error('draft_not_saved');
      const { workflow } = await queryClient.fetchQuery({ ...trpc.workflows.get.queryOptions({ id: workflowId }), staleTime: 0 });
      const graph = withTriggerOption(workflow.graph, option);
      if (!graph) throw new Error(noMailTrigger);
      return client.workflows.putGraph.mutate({ id: workflowId, graph, draftRevision: workflow.draftRevision });
    },
    onSettled: () => queryClient.invalidateQueries(trpc.workflows.get.queryFilter({ id: workflowId })),
  });
}

export const noMailTrigger = 'no_mail_trigger';
