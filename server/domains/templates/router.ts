/** The templates domain's routes (spec: Endpoints → Templates; the administration routes are ours). */
import type { ErrorCode } from '../../core/errors/catalogue';
import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import {
  createTemplateInput,
  installInput,
  installOutput,
  templateDetailOutput,
  templateIdInput,
  templateListOutput,
  templateOutput,
  updateTemplateInput,
} from './schemas';
import { createTemplate, deleteTemplate, getTemplate, installTemplate, listTemplates, setTemplateEnabled, updateTemplate } from './service';
import { docs } from './docs';

const tag = 'Templates';
const read = { kind: 'scope', scope: 'templates:read' } as const;
const adminWrite = { kind: 'scope', scope: 'admin:write', admin: true } as const;
const notFound: ErrorCode[] = ['templates.not_found'];

/** enable / disable: the same shape, one state each. */
function toggle(action: 'enable' | 'disable', summary: { en: string; fr: string }, description: { en: string; fr: string }) {
  return route({ method: 'POST', path: `/api/v1/admin/templates/{id}/${action}`, access: adminWrite, errors: notFound, tag, summary, description });
}

export const templatesRouter = router({
  list: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/templates',
        access: read,
        tag,
        summary: docs.list.summary,
        description: docs.list.description,
      }),
    )
    .output(templateListOutput)
    .query(({ ctx }) => listTemplates(actorOf(ctx))),

  get: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/templates/{id}',
        access: read,
        errors: notFound,
        tag,
        summary: docs.get.summary,
        description: docs.get.description,
      }),
    )
    .input(templateIdInput)
    .output(templateDetailOutput)
    .query(({ ctx, input }) => getTemplate(actorOf(ctx), input.id)),

  install: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/templates/{id}/install',
        access: { kind: 'scope', scope: 'workflows:write' },
        idempotent: true,
        status: 201,
        errors: [...notFound, 'templates.forbidden_node', 'templates.table_mismatch', 'tables.not_found', 'auth.forbidden', 'workflow.invalid_graph'],
        tag,
        summary: docs.install.summary,
        description: docs.install.description,
      }),
    )
    .input(installInput)
    .output(installOutput)
    .mutation(({ ctx, input }) => installTemplate(actorOf(ctx), input, ctx.ip)),

  adminCreate: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/admin/templates',
        access: adminWrite,
        idempotent: true,
        status: 201,
        errors: ['workflow.not_found', 'workflow.invalid_graph'],
        tag,
        summary: docs.adminCreate.summary,
        description: docs.adminCreate.description,
      }),
    )
    .input(createTemplateInput)
    .output(templateOutput)
    .mutation(({ ctx, input }) => createTemplate(actorOf(ctx), input, ctx.ip)),

  adminUpdate: procedure
    .meta(
      route({
        method: 'PATCH',
        path: '/api/v1/admin/templates/{id}',
        access: adminWrite,
        errors: [...notFound, 'templates.read_only', 'workflow.invalid_graph'],
        tag,
        summary: docs.adminUpdate.summary,
        description: docs.adminUpdate.description,
      }),
    )
    .input(updateTemplateInput)
    .output(templateOutput)
    .mutation(({ ctx, input }) => updateTemplate(actorOf(ctx), input, ctx.ip)),

  adminEnable: procedure
    .meta(
      toggle(
        'enable',
        docs.adminEnable.summary,
        docs.adminEnable.description,
      ),
    )
    .input(templateIdInput)
    .output(templateOutput)
    .mutation(({ ctx, input }) => setTemplateEnabled(actorOf(ctx), input.id, true, ctx.ip)),

  adminDisable: procedure
    .meta(
      toggle(
        'disable',
        docs.adminDisable.summary,
        docs.adminDisable.description,
      ),
    )
    .input(templateIdInput)
    .output(templateOutput)
    .mutation(({ ctx, input }) => setTemplateEnabled(actorOf(ctx), input.id, false, ctx.ip)),

  adminDelete: procedure
    .meta(
      route({
        method: 'DELETE',
        path: '/api/v1/admin/templates/{id}',
        access: adminWrite,
        errors: [...notFound, 'templates.read_only'],
        tag,
        summary: docs.adminDelete.summary,
        description: docs.adminDelete.description,
      }),
    )
    .input(templateIdInput)
    .output(templateOutput)
    .mutation(({ ctx, input }) => deleteTemplate(actorOf(ctx), input.id, ctx.ip)),
});
