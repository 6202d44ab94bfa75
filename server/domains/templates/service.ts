/**
 * Templates: workflow graphs offered to every member (spec: Endpoints → Templates), and their
 * administration (ours). Members see the enabled templates; administrators every one. Installing
 * makes a new draft workflow of the caller through the workflows domain's own create (same
 * validation and defaults; never published) and counts the install in the same transaction. A
 * template using a node type forbidden to the caller (FORBIDDEN_NODE_TYPES, members only) is 409
 * `templates.forbidden_node` with `details.nodeTypes`.
 *
 * Administration: a template comes from one of the administrator's workflows (its draft) or from a
 * graph; the graph is validated like a workflow's and stored without ids; `nodeTypes` and
 * `requiresProviders` are derived from it on every write. Starter templates (those with a slug, which
 * the instance ships and keeps in step) may be enabled or disabled, never edited or deleted: 409
 * `templates.read_only`. Every change is audited (`template.*`), never with the graph in the details.
 */
import type { Template } from '../../generated/prisma/client';
import type { AuthenticatedActor } from '../../core/auth/access';
import { auditByOf, recordAudit } from '../../core/audit';
import { db, type Tx } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { forbiddenNodeTypesFor, forbiddenTypesIn } from '../../engine';
import { graphInput, type GraphInput } from '../../engine/contract/graph';
import { draftOf, findOwnedOrThrow, assertValidGraph, createWorkflow } from '../workflows';
import { templateFactsOf } from './derive';
import { presentTemplate, templateGraph } from './present';
import * as repo from './repo';
import type { CreateTemplateInput, InstallInput, UpdateTemplateInput } from './schemas';
import { starterTablesOf } from './starter-tables';
import { withChosenTables } from './install-tables';

const viewerOf = (actor: AuthenticatedActor): repo.Viewer => ({ admin: actor.member.role === 'admin' });

export async function listTemplates(actor: AuthenticatedActor) {
  const templates = await repo.listVisible(viewerOf(actor));
  return { templates: templates.map(presentTemplate) };
}

export async function getTemplate(actor: AuthenticatedActor, id: string) {
  const template = await repo.findVisibleOrThrow(viewerOf(actor), id);
  return { template: presentTemplate(template), graph: templateGraph(template) };
}

export async function installTemplate(actor: AuthenticatedActor, input: InstallInput, ip: string | null) {
  return db().$transaction(async (tx) => {
    const template = await repo.findVisibleOrThrow(viewerOf(actor), input.id, tx);
    const graph = templateGraph(template);
    const nodeTypes = forbiddenTypesIn(graph, forbiddenNodeTypesFor(actor.member.role));
    if (nodeTypes.length) throw appError('templates.forbidden_node', { details: { nodeTypes } });
    const { id: _id, workflowId: _workflowId, ...stored } = await withChosenTables(actor, graph, starterTablesOf(template.slug), input.tables ?? [], ip, tx);
    const { workflow } = await createWorkflow(actor, { name: input.name ?? template.name, description: template.description, graph: stored as GraphInput }, ip, tx);
    await repo.countInstall(template.id, tx);
    return { workflowId: workflow.id };
  });
}

/** A graph validated like a workflow's draft (400 `workflow.invalid_graph`), as stored: without ids, with its derived facts. */
function storableGraph(input: GraphInput) {
  const graph = graphInput.parse(input);
  assertValidGraph(graph);
  const { id: _id, workflowId: _workflowId, ...stored } = graph;
  return { graph: stored as object, ...templateFactsOf(graph) };
}

function refuseStarter(template: Pick<Template, 'slug'>): void {
  if (template.slug !== null) throw appError('templates.read_only');
}

const audit = (actor: AuthenticatedActor, tx: Tx, ip: string | null, action: string, template: Template, details: Record<string, unknown>) =>
  recordAudit(auditByOf(actor), { action: `template.${action}`, targetKind: 'template', targetId: template.id, details: { name: template.name, ...details }, ip }, tx);

export async function createTemplate(actor: AuthenticatedActor, input: CreateTemplateInput, ip: string | null) {
  const source = input.workflowId !== undefined ? draftOf(await findOwnedOrThrow(actor.member.id, input.workflowId)) : input.graph!;
  const stored = storableGraph(source);
  return db().$transaction(async (tx) => {
    const template = await repo.insertTemplate(
      { name: input.name, description: input.description, category: input.category, enabled: input.enabled, createdBy: actor.member.id, ...stored },
      tx,
    );
    const from = input.workflowId !== undefined ? { workflowId: input.workflowId.toLowerCase() } : { from: 'graph' };
    await audit(actor, tx, ip, 'created', template, { category: template.category, enabled: template.enabled, nodeTypes: template.nodeTypes, ...from });
    return { template: presentTemplate(template) };
  });
}

export async function updateTemplate(actor: AuthenticatedActor, input: UpdateTemplateInput, ip: string | null) {
  const stored = input.graph === undefined ? {} : storableGraph(input.graph);
  return db().$transaction(async (tx) => {
    const template = await repo.lockOrThrow(input.id, tx);
    refuseStarter(template);
    const updated = await repo.updateTemplateRow(template.id, { name: input.name, description: input.description, category: input.category, ...stored }, tx);
    const fields = (['name', 'description', 'category', 'graph'] as const).filter((field) => input[field] !== undefined);
    await audit(actor, tx, ip, 'updated', updated, { fields });
    return { template: presentTemplate(updated) };
  });
}

/** Idempotent: the template as it is when it already has that state (audited only on a change). */
export async function setTemplateEnabled(actor: AuthenticatedActor, id: string, enabled: boolean, ip: string | null) {
  return db().$transaction(async (tx) => {
    const template = await repo.lockOrThrow(id, tx);
    if (template.enabled === enabled) return { template: presentTemplate(template) };
    const updated = await repo.updateTemplateRow(template.id, { enabled }, tx);
    await audit(actor, tx, ip, enabled ? 'enabled' : 'disabled', updated, {});
    return { template: presentTemplate(updated) };
  });
}

/** Workflows installed from the template stay: they hold their own copy of the graph. */
export async function deleteTemplate(actor: AuthenticatedActor, id: string, ip: string | null) {
  return db().$transaction(async (tx) => {
    const template = await repo.lockOrThrow(id, tx);
    refuseStarter(template);
    await repo.deleteTemplateRow(template.id, tx);
    await audit(actor, tx, ip, 'deleted', template, { installCount: template.installCount });
    return { template: presentTemplate(template) };
  });
}
