/**
 * Sub-workflow: starts one run of another of the member's workflows (its trigger data: `data`, by
 * default this step's input), waits for it without holding a slot, and outputs the child's output.
 * The engine checks the workflow exists and is the member's (`sub_workflow_not_found`), is not in the
 * call chain (`sub_workflow_recursion`) nor too deep (`sub_workflow_depth_exceeded`), and postpones
 * the start while the member's runs holding no slot are at their cap (run/children.ts).
 */
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';
import { fail } from '../../contract/failures';

function asObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
}

export const subWorkflowNode = defineNode({
  type: 'flow.sub_workflow',
  version: 1,
  category: 'flow',
  label: { en: 'Run a sub-workflow', fr: 'Lancer un sous-workflow' },
  description: {
    en: 'Runs another of your workflows with data from this one, waits for it to end and outputs its result. A workflow cannot call itself, directly or through others, and calls nest at most 8 levels deep (the instance may set another depth).',
    fr: 'Lance un autre de vos workflows avec des données de celui-ci, attend sa fin et transmet son résultat. Un workflow ne peut pas s’appeler lui-même, directement ou par d’autres, et les appels s’imbriquent sur 8 niveaux au plus (l’instance peut en fixer un autre nombre).',
  },
  params: z.strictObject({
    workflowId: z.uuid().describe('The workflow to run (one of yours).'),
    data: z.unknown().optional().describe('The trigger data of the child run (an object; default: this step’s input).'),
  }),
  outputs: ['main'],
  effect: 'none',
  requires: [],
  childKind: 'sub_workflow',
  persistsStepFirst: true,
  scopes: [],
  workflowParams: ['workflowId'],
  async execute({ params, input, children, resume }) {
    if (resume?.reason !== 'children') {
      const triggerData = asObject(params.data === undefined ? (input.main ?? {}) : params.data);
      await children.start([{ index: 0, workflowId: params.workflowId, triggerData }]);
      return { kind: 'suspend', mode: 'children', until: null, state: { started: true } };
    }
    const [child] = (await children.list()).filter((entry) => entry.index === 0);
    if (!child) throw fail.permanent('sub_workflow_not_found');
    if (child.status === 'succeeded') return { data: child.output ?? {} };
    throw fail.permanent('sub_workflow_failed', { details: { executionId: child.executionId, status: child.status, error: child.error?.code ?? null } });
  },
});
