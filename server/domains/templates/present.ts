/** Stored templates → the API's Template resource and its graph. */
import type { Template } from '../../generated/prisma/client';
import { iso } from '../../core/http/schemas';
import type { WorkflowGraph } from '../../engine/contract/graph';
import { readGraph } from '../workflows';
import type { TemplateOutput } from './schemas';
import { starterTablesOf } from './starter-tables';

export function presentTemplate(template: Template): TemplateOutput {
  return {
    id: template.id,
    name: template.name,
    description: template.description,
    category: template.category,
    enabled: template.enabled,
    nodeTypes: template.nodeTypes,
    requiresProviders: template.requiresProviders,
    createdBy: template.createdBy,
    createdAt: iso(template.createdAt),
    updatedAt: iso(template.updatedAt),
    installCount: template.installCount,
    tables: starterTablesOf(template.slug).map(({ nodeIds: _nodeIds, ...table }) => ({
      ...table,
      columns: table.columns.map((column) => ({ ...column, isKey: column.isKey === true, alsoFits: column.alsoFits ?? [], optional: column.optional === true })),
    })),
  };
}

/** The stored graph (kept without ids) read back as a workflow graph carrying the template's id. */
export function templateGraph(template: Pick<Template, 'id' | 'graph'>): WorkflowGraph {
  return readGraph(template.graph, { id: template.id, workflowId: template.id });
}
