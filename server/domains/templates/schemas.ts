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
import { columnTypes } from '../tables/schemas';
import { storedGraphInput } from '../workflows/schemas';

const columnType = z.enum(columnTypes);

/** A shared table a template reads or writes, as its card shows it (starter templates declare theirs). */
export const templateTableSchema = z
  .object({
    slug: z.string().describe('The template’s name for the table: what `tables[].slug` of the install names.'),
    name: z.string().describe('The name a created table gets.'),
    description: z.string(),
    columns: z.array(
      z.object({
        key: z.string(),
        label: z.string(),
        type: columnType.describe('The column type the template writes.'),
        isKey: z.boolean(),
        alsoFits: z.array(columnType).describe('Other column types an existing table may have there.'),
        optional: z.boolean().describe('The template works without this column.'),
      }),
    ),
  })
  .meta({ id: 'TemplateTable' });

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
    tables: z.array(templateTableSchema).describe('The shared tables the template needs, with their columns and types (ours).'),
  })
  .meta({ id: 'Template' });

export type TemplateOutput = z.infer<typeof templateSchema>;

export const templateListOutput = z.object({ templates: z.array(templateSchema) });

/** Any string of a sane length: one that names no template the caller may see is the same 404. */
export const templateIdInput = z.object({ id: z.string().min(1).max(200) });

const tableChoice = z.discriminatedUnion('use', [
  z.strictObject({ slug: z.string().min(1).max(60), use: z.literal('create') }),
  z.strictObject({ slug: z.string().min(1).max(60), use: z.literal('existing'), tableId: z.string().min(1).max(200).describe('An existing table’s id or slug.') }),
]);

export const installInput = templateIdInput.extend({
  name: z.string().trim().min(1).max(200).optional(),
  tables: z.array(tableChoice).max(10).optional().describe('For each table of the template (`slug`): create it, or use an existing table (ours).'),
});
export type InstallInput = z.infer<typeof installInput>;
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
