import { describe, expect, it } from 'vitest';
import { fakeContext } from '../testing';
import { subWorkflowNode } from './sub-workflow.node';

const workflowId = '5b1d9a52-4f0c-4d55-9d5b-2f7d3f2a9e10';

describe('flow.sub_workflow', () => {
  it('starts the child with the input as trigger data, then suspends for children', async () => {
    const { context, started } = fakeContext({ params: subWorkflowNode.params.parse({ workflowId }), input: { main: { a: 1 } } });
    expect(await subWorkflowNode.execute(context)).toMatchObject({ kind: 'suspend', mode: 'children' });
    expect(started).toEqual([{ index: 0, workflowId, triggerData: { a: 1 } }]);
  });

  it.each([
    ['succeeded', { data: { ok: 1 } }],
  ])('a %s child gives its output', async (status, expected) => {
    const { context } = fakeContext({
      params: subWorkflowNode.params.parse({ workflowId }),
      resume: { reason: 'children' },
      children: [{ index: 0, executionId: 'c1', status, output: { ok: 1 }, error: null }],
    });
    expect(await subWorkflowNode.execute(context)).toEqual(expected);
  });

  it.each(['failed', 'cancelled'])('a %s child fails sub_workflow_failed with its execution id', async (status) => {
    const { context } = fakeContext({
      params: subWorkflowNode.params.parse({ workflowId }),
      resume: { reason: 'children' },
      children: [{ index: 0, executionId: 'c1', status, output: null, error: { code: 'http_error', message: 'x' } }],
    });
    await expect(subWorkflowNode.execute(context)).rejects.toMatchObject({ code: 'sub_workflow_failed', kind: 'permanent', details: { executionId: 'c1' } });
  });
});
