'use client';

/**
 * The templates section's access to the API: every tRPC call about templates goes through this
 * file, so the rest of the UI depends on these types and hooks only.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useI18n } from '@/app/i18n/client';
import { useTRPC, type RouterOutputs } from '@/app/lib/trpc';
import type { NodeTypeLabels } from './steps';

export type Template = RouterOutputs['templates']['list']['templates'][number];

export function useTemplateList() {
  const trpc = useTRPC();
  return useQuery(trpc.templates.list.queryOptions());
}

/** One template with its graph, fetched only while `enabled` (the preview is open). */
export function useTemplate(id: string, enabled: boolean) {
  const trpc = useTRPC();
  return useQuery({ ...trpc.templates.get.queryOptions({ id }), enabled });
}

export function useTemplatesCache() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return {
    refresh: () =>
      Promise.all([
        queryClient.invalidateQueries(trpc.templates.list.queryFilter()),
        queryClient.invalidateQueries(trpc.templates.get.queryFilter()),
        queryClient.invalidateQueries(trpc.workflows.list.queryFilter()),
      ]),
  };
}

export function useTemplateMutations() {
  const trpc = useTRPC();
  return {
    install: trpc.templates.install.mutationOptions(),
    enable: trpc.templates.adminEnable.mutationOptions(),
    disable: trpc.templates.adminDisable.mutationOptions(),
    create: trpc.templates.adminCreate.mutationOptions(),
    update: trpc.templates.adminUpdate.mutationOptions(),
    remove: trpc.templates.adminDelete.mutationOptions(),
  };
}

export { stepLabels, type NodeTypeLabels } from './steps';

export function useNodeTypeLabels(): NodeTypeLabels {
  const trpc = useTRPC();
  const { locale } = useI18n();
  const list = useQuery({ ...trpc.nodeTypes.list.queryOptions({ lang: locale === 'fr' ? 'fr' : 'en' }), staleTime: Infinity });
  return new Map((list.data?.nodeTypes ?? []).map((nodeType) => [`${nodeType.type}@${nodeType.version}`, nodeType.label]));
}

/** The team's tables, read only for a template that needs one (the form waits for them to choose). */
export function useExistingTables(needed: boolean) {
  const trpc = useTRPC();
  return useQuery({ ...trpc.tables.list.queryOptions(), enabled: needed });
}
