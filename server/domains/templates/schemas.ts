/**
 * Templates as the spec's Resources show them (Template; the read-one form adds `graph`) and the
 * inputs of the Templates endpoints, plus the administration routes the spec leaves to us.
 *
 * Terminology: a template is a workflow graph offered to every member; installing it makes a new
 * draft workflow of the member (publishing stays a separate step); a starter template is one the
 * instance ships (it has a `slug`).
 */
import { z } from 'zod';
import { isoDateTime } from '../../core/http/schemas';
import { storedGraphInput } from '../workflows/schemas';

export const templateSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string(),
    category: z.string().nullable(),
    enabled: z.boolean(),
    nodeTypes: z.array(z.string()).describe('The node types the graph uses (`type@version`), derived from the graph.'),
    requiresProviders: z.array(z.string()).describe('Mailbox providers or connection types the graph needs, derived from the graph.'),
    createdBy: z.uuid().nullable(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    installCount: z.number().int().min(0),
  })
  .meta({ id: 'Template' });

export type TemplateOutput = z.infer<typeof templateSchema>;

export const templateListOutput = z.object({ templates: z.array(templateSchema) });

/** Any string of a sane length: one that names no template the caller may see is the same 404. */
export const templateIdInput = z.object({ id: z.string().min(1).max(200) });

export const installInput = templateIdInput.extend({ name: z.string().trim().min(1).max(200).optional() });
export const installOutput = z.object({ workflowId: z.uuid() });

export const templateCategories = ['triage', 'follow-up', 'extraction', 'approvals', 'notifications', 'digests', 'integrations', 'other'] as const;

const templateFields = {
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2_000),
  category: z.enum(templateCategories).nullable(),
};

/** Administration (ours): a template from one of the administrator's workflows (its draft) or from a graph. */
export const createTemplateInput = z
  .object({
    ...templateFields,
    description: templateFields.description.default(''),
    category: templateFields.category.default(null),
    workflowId: z.string().min(1).max(200).optional().describe('Take the graph of this workflow’s draft (one of yours).'),
    graph: storedGraphInput.optional().describe('Or give the graph itself.'),
    enabled: z.boolean().default(true),
  })
  .refine((input) => (input.workflowId === undefined) !== (input.graph === undefined), { message: 'Give either workflowId or graph.', path: ['graph'] });

export const updateTemplateInput = templateIdInput.extend({
  name: templateFields.name.optional(),
  description: templateFields.description.optional(),
  category: templateFields.category.optional(),
  graph: storedGraphInput.optional(),
});

export type CreateTemplateInput = z.infer<typeof createTemplateInput>;
export type UpdateTemplateInput = z.infer<typeof updateTemplateInput>;

/** A workflow graph as read back (GET …/templates/{id}); `id` and `workflowId` are the template's id. */
const templateGraphOutput = z.looseObject({ id: z.string(), workflowId: z.string(), nodes: z.array(z.unknown()), connections: z.array(z.unknown()) });

export const templateDetailOutput = z.object({ template: templateSchema, graph: templateGraphOutput });
export const templateOutput = z.object({ template: templateSchema });
