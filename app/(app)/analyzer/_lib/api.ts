'use client';

/** The mailbox analyzer's access to the API: the member's mailboxes, a mailbox's report, analysing, and the suggested workflow. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC, type RouterOutputs } from '@/app/lib/trpc';

export type Report = RouterOutputs['analyzer']['report']['report'];

export function useAnalyzerMailboxes() {
  const trpc = useTRPC();
  return useQuery(trpc.mailboxes.list.queryOptions());
}

/** The mailbox's report, re-read every `pollEvery(report)` milliseconds (or not, on `false`). */
export function useAnalyzerReport(mailboxId: string | null, pollEvery: (report: Report | undefined) => number | false) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.analyzer.report.queryOptions({ id: mailboxId ?? '' }),
    enabled: Boolean(mailboxId),
    retry: false,
    refetchInterval: (query) => pollEvery(query.state.data?.report),
  });
}

export function useRefreshAnalyzerReport(mailboxId: string | null) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries(trpc.analyzer.report.queryFilter({ id: mailboxId ?? '' }));
}

export function useAnalyze(onSettled: () => unknown) {
  const trpc = useTRPC();
  return useMutation({ ...trpc.analyzer.analyze.mutationOptions(), onSettled });
}

export function useCreateAnalyzerWorkflow(onCreated: (workflowId: string) => void) {
  const trpc = useTRPC();
  return useMutation({
    ...trpc.analyzer.createWorkflow.mutationOptions(),
    onSuccess: (answer) => onCreated(answer.workflowId),
  });
}
