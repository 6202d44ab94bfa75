/**
 * The tools the assistant's model may call on a workflow-attached conversation. Each reads or writes
 * only the conversation member's own workflow; results are plain JSON, bounded in size, with every
 * secret-looking value of the workflow masked before it goes to the AI vendor (./masking.ts); a
 * proposal gets the masked values it kept back from the draft.
 */
import { z } from 'zod';
import type { AiToolCall, AiToolDefinition } from '../../core/ai/types';
import { log } from '../../core/log';
import { forbiddenNodeIssues, forbiddenNodeTypesFor, validateGraph } from '../../engine';
import type { GraphIssue } from '../../engine';
import { graphInput } from '../../engine/contract/graph';
import { listNodeTypes } from '../node-types';
import { draftOf } from '../workflows';
import { maskForModel, maskValues, restoreMaskedValues } from './masking';
import { findOwnWorkflow, findRecentRuns, insertProposal } from './repo';

export const assistantTools: Record<string, AiToolDefinition> = {
  get_workflow: {
    description: 'Read the attached workflow: its name and its current draft graph (nodes, connections, notes, pins) with the draft revision.',
    input: z.object({}),
  },
  list_node_types: {
    description: 'The catalogue of node types: type, version, category, label, description, inputs, outputs and the JSON Schema of their params.',
    input: z.object({ category: z.string().max(64).optional().describe('Only this category (`trigger`, `logic`, `mail`, …).') }),
  },
  recent_executions: {
    description: 'The last 10 runs of the attached workflow, newest first: status, times, and for a failed run the failing step and its error.',
    input: z.object({}),
  },
  propose_graph: {
    description:
      'Propose a new full graph for the attached workflow (every node and connection, not a patch) with a short summary of the change. The graph is validated: when invalid, the result lists the issues to fix and nothing is stored; when valid, the member sees the proposal as a diff and accepts or rejects it.',
    input: z.object({
      graph: z
        .object({ nodes: z.array(z.record(z.string(), z.unknown())), connections: z.array(z.record(z.string(), z.unknown())) })
        .catchall(z.unknown())
        .describe('The full graph: {nodes: [{id, type, version, name, params, position}], connections: [{from, output, to}], notes?, pins?}.'),
      summary: z.string().max(2_000).describe('What changes and why, in one or two sentences.'),
    }),
  },
};

export interface ToolContext {
  memberId: string;
  role: 'member' | 'admin';
  workflowId: string;
  conversationId: string;
  messageId: string;
  /** The draft revision the model last read with get_workflow in this turn (proposals are based on it). */
  readRevision: number | null;
}

const maxErrorText = 500;

function errorText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object') {
    const raw = value as Record<string, unknown>;
    const text = [raw.code, raw.message].filter((part) => typeof part === 'string').join(': ');
    return (text || JSON.stringify(value)).slice(0, maxErrorText);
  }
  return (typeof value === 'string' ? value : JSON.stringify(value)).slice(0, maxErrorText);
}

async function ownedWorkflow(context: ToolContext) {
  return findOwnWorkflow(context.memberId, context.workflowId);
}

/** Issues of a candidate graph, from the same checks as saving a draft; empty when valid. */
export function graphIssues(candidate: unknown, role: 'member' | 'admin'): { issues: GraphIssue[]; graph: ReturnType<typeof graphInput.parse> | null } {
  const parsed = graphInput.safeParse(candidate);
  if (!parsed.success) {
    return { graph: null, issues: parsed.error.issues.slice(0, 50).map((issue) => ({ path: issue.path.join('.'), message: issue.message })) };
  }
  const issues = [...forbiddenNodeIssues(parsed.data, forbiddenNodeTypesFor(role)), ...validateGraph(parsed.data)];
  return { graph: parsed.data, issues: issues.slice(0, 50) };
}

/** Runs one tool call; a failure is a result the model reads, never a thrown error. */
export async function runTool(name: string, input: unknown, context: ToolContext): Promise<unknown> {
  const args = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  switch (name) {
    case 'get_workflow': {
      const workflow = await ownedWorkflow(context);
      if (!workflow) return { error: 'The workflow no longer exists.' };
      context.readRevision = workflow.draftRevision;
      const { id: _id, workflowId: _workflowId, ...graph } = draftOf(workflow);
      return maskForModel({ name: workflow.name, description: workflow.description, draftRevision: workflow.draftRevision, graph }).value;
    }
    case 'list_node_types': {
      const category = typeof args.category === 'string' ? args.category : undefined;
      const { nodeTypes } = listNodeTypes({ lang: 'en' }, context.role);
      return {
        nodeTypes: nodeTypes
          .filter((type) => !type.forbidden && (category === undefined || type.category === category))
          .map((type) => ({ type: type.type, version: type.version, category: type.category, label: type.label, description: type.description, inputs: type.inputs, outputs: type.outputs, trigger: type.trigger, paramsSchema: type.paramsSchema })),
      };
    }
    case 'recent_executions': {
      const workflow = await ownedWorkflow(context);
      const secrets = workflow ? maskForModel(draftOf(workflow)).secrets : [];
      const executions = await findRecentRuns(context.memberId, context.workflowId, 10);
      return maskValues(maskForModel({
        executions: executions.map((execution) => ({
          id: execution.id,
          status: execution.status,
          simulated: execution.simulated,
          createdAt: execution.createdAt.toISOString(),
          finishedAt: execution.finishedAt?.toISOString() ?? null,
          error: errorText(execution.error),
          failedStep: execution.steps[0] ? { nodeId: execution.steps[0].nodeId, nodeType: execution.steps[0].nodeType, error: errorText(execution.steps[0].error) } : null,
        })),
      }).value, secrets);
    }
    case 'propose_graph': {
      const summary = typeof args.summary === 'string' ? args.summary.slice(0, 2_000) : '';
      const workflow = await ownedWorkflow(context);
      if (!workflow) return { ok: false, issues: [{ path: '', message: 'The workflow no longer exists.' }] };
      // The model saw secrets masked: the ones it kept come back from the draft, never as the mask.
      const { id: _draftId, workflowId: _draftWorkflowId, ...draft } = draftOf(workflow);
      const restored = restoreMaskedValues(args.graph, draft);
      if (restored.unresolved.length > 0) {
        const message = 'This value is a masked secret (••••) with no counterpart at the same place in the draft: keep masked values where they were, or write a new value.';
        return { ok: false, issues: restored.unresolved.slice(0, 50).map((path) => ({ path, message })), hint: 'Fix these issues and call propose_graph again with the full graph.' };
      }
      const { graph, issues } = graphIssues(restored.graph, context.role);
      if (!graph || issues.length > 0) {
        return maskValues({ ok: false, issues, hint: 'Fix these issues and call propose_graph again with the full graph.' }, maskForModel(draft).secrets);
      }
      const { id: _id, workflowId: _workflowId, ...storable } = graph;
      const proposal = await insertProposal({
        conversationId: context.conversationId,
        messageId: context.messageId,
        workflowId: workflow.id,
        baseDraftRevision: context.readRevision ?? workflow.draftRevision,
        graph: JSON.parse(JSON.stringify(storable)),
        summary: summary || 'Proposed changes',
      });
      return { ok: true, proposalId: proposal.id, note: 'The member now sees the proposal and decides; do not repeat it.' };
    }
    default:
      return { error: `Unknown tool ${name}.` };
  }
}

/** Runs a tool call of the model's; a crash is logged and answered as a failure the model reads. */
export async function runToolSafely(call: AiToolCall, context: ToolContext): Promise<unknown> {
  try {
    return await runTool(call.name, call.input, context);
  } catch (error) {
    log.warn({ err: error, tool: call.name }, 'assistant: tool failed');
    return { error: 'The tool failed.' };
  }
}
