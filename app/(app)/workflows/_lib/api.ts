'use client';

/**
 * The workflows section's access to the API: every tRPC call about workflows goes through this file,
 * so the rest of the UI depends on these types and hooks only.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC, type RouterOutputs } from '@/app/lib/trpc';

export type Workflow = RouterOutputs['workflows']['list']['workflows'][number];
export type WorkflowDetail = RouterOutputs['workflows']['get']['workflow'];
export type WorkflowVersion = RouterOutputs['workflows']['versions']['versions'][number];
export type ExecutionLimits = WorkflowDetail['executionLimits'];
export type WebhookAnswer = RouterOutputs['workflows']['webhook'];
export type WorkflowVersionDetail = RouterOutputs['workflows']['version']['version'];
export type RestoredDraft = RouterOutputs['workflows']['restoreVersion'];

export function useWorkflowList() {
  const trpc = useTRPC();
  return useQuery(trpc.workflows.list.queryOptions());
}

export function useWorkflow(id: string) {
  const trpc = useTRPC();
  return useQuery(trpc.workflows.get.queryOptions({ id }));
}

export function useWorkflowVersions(id: string) {
  const trpc = useTRPC();
  return useQuery(trpc.workflows.versions.queryOptions({ id }));
}

/** One version with its graph, fetched only once `versionId` is known. */
export function useWorkflowVersion(id: string, versionId: string | null) {
  const trpc = useTRPC();
  return useQuery({ ...trpc.workflows.version.queryOptions({ id, versionId: versionId ?? '' }), enabled: versionId !== null });
}

/** What a change to one workflow makes stale: the list, its page and its versions. */
export function useWorkflowsCache() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return {
    refresh: () =>
      Promise.all([
        queryClient.invalidateQueries(trpc.workflows.list.queryFilter()),
        queryClient.invalidateQueries(trpc.workflows.get.queryFilter()),
        queryClient.invalidateQueries(trpc.workflows.versions.queryFilter()),
      ]),
    putDetail: (workflow: WorkflowDetail) => queryClient.setQueryData(trpc.workflows.get.queryKey({ id: workflow.id }), { workflow }),
    forget: (id: string) => queryClient.removeQueries(trpc.workflows.get.queryFilter({ id })),
  };
}

export function useWorkflowMutations() {
  const trpc = useTRPC();
  return {
    create: trpc.workflows.create.mutationOptions(),
    patch: trpc.workflows.patch.mutationOptions(),
    putGraph: trpc.workflows.putGraph.mutationOptions(),
    publish: trpc.workflows.publish.mutationOptions(),
    unpublish: trpc.workflows.unpublish.mutationOptions(),
    pause: trpc.workflows.pause.mutationOptions(),
    resume: trpc.workflows.resume.mutationOptions(),
    archive: trpc.workflows.archive.mutationOptions(),
    remove: trpc.workflows.delete.mutationOptions(),
    testRun: trpc.workflows.testRun.mutationOptions(),
    webhook: trpc.workflows.webhook.mutationOptions(),
    restoreVersion: trpc.workflows.restoreVersion.mutationOptions(),
  };
}
