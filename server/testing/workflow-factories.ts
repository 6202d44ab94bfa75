/**
 * Workflows and executions for tests. Until the workflows domain's publish service exists these write
 * rows directly; tests of one rule build the smallest graph that shows it.
 */
import { db } from '../core/db';
import type { GraphInput } from '../engine/contract/graph';
import { triggerFactsOf } from '../engine/graph/trigger-facts';
import type { TestMember } from './factories';

export const webhookGraph = (extra: Partial<GraphInput> = {}): GraphInput => ({
  nodes: [{ id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {}, position: { x: 0, y: 0 } }],
  connections: [],
  ...extra,
});

/** A workflow with `graph` as its draft and, unless `publish: false`, as its published version 1. */
export async function createWorkflow(member: Pick<TestMember, 'id'>, options: { id?: string; name?: string; graph?: GraphInput; publish?: boolean; paused?: boolean } = {}) {
  const graph = options.graph ?? webhookGraph();
  const workflow = await db().workflow.create({
    // `id` chosen in advance: a graph that names its own workflow (a sub-workflow calling itself).
    data: { ...(options.id ? { id: options.id } : {}), memberId: member.id, name: options.name ?? 'Test workflow', graph: graph as object, paused: options.paused ?? false },
  });
  if (options.publish === false) return { workflow, version: null };
  // The trigger facts publishing records (trigger, watched and used mailboxes), from the same function.
  const facts = triggerFactsOf({ nodes: (graph.nodes ?? []).map((node) => ({ ...node, params: node.params ?? {} })) });
  const version = await db().workflowVersion.create({
    data: {
      workflowId: workflow.id,
      number: 1,
      graph: { ...graph, id: workflow.id, workflowId: workflow.id } as object,
      ...facts,
      createdBy: member.id,
    },
  });
  const published = await db().workflow.update({ where: { id: workflow.id }, data: { publishedVersionId: version.id } });
  return { workflow: published, version };
}
