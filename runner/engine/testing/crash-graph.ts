/** The 5-node workflow of the crash test and the engine bench: webhook → set → if → set → HTTP. */
import type { GraphInput } from '../../../server/engine/contract/graph';

export function crashWorkflowGraph(sinkUrl: string): GraphInput {
  return {
    nodes: [
      { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} },
      { id: 'tag', type: 'data.set', version: 1, name: 'Tag', params: { fields: [{ name: 'tagged', value: true }], keepInput: true } },
      {
        id: 'check',
        type: 'logic.if',
        version: 1,
        name: 'Check amount',
        params: { combine: 'all', conditions: [{ left: '{{ trigger.amount }}', operator: 'gte', right: 0 }] },
      },
      { id: 'shape', type: 'data.set', version: 1, name: 'Shape', params: { fields: [{ name: 'index', value: '{{ trigger.index }}' }], keepInput: false } },
      {
        id: 'call',
        type: 'http.request',
        version: 1,
        name: 'Call sink',
        params: { method: 'POST', url: sinkUrl, headers: [{ name: 'Idempotency-Key', value: '{{ execution.id }}' }], body: { type: 'json', json: '{{ nodes.shape }}' } },
        retry: { maxAttempts: 3, delayMs: 1_000 },
      },
    ],
    connections: [
      { from: 'start', output: 'main', to: 'tag' },
      { from: 'tag', output: 'main', to: 'check' },
      { from: 'check', output: 'true', to: 'shape' },
      { from: 'shape', output: 'main', to: 'call' },
    ],
  };
}
