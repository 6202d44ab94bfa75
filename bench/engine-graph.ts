/**
 * The engine bench's workflow (bench/engine.ts): the crash test's five nodes (runner/engine/testing/crash-graph.ts),
 * webhook trigger → data.set → logic.if → data.set → http.request, with parameters as the node catalogue defines
 * them (JSONata expressions over `{trigger, input, nodes, execution, now}`; HTTP headers as `{name, value}` pairs and
 * a `{type: 'json', json}` body). The bench checks it with the graph validator before it runs, and checks after a
 * run that every step ran and the HTTP step reached the sink, so a parameter the catalogue changes is caught rather
 * than benched as a shorter workflow.
 */
import type { GraphInput } from '../server/engine/contract/graph';

export const benchNodeIds = ['start', 'tag', 'check', 'shape', 'call'] as const;

export function engineBenchGraph(sinkUrl: string): GraphInput {
  return {
    nodes: [
      { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {}, position: { x: 0, y: 0 } },
      { id: 'tag', type: 'data.set', version: 1, name: 'Tag', params: { fields: [{ name: 'tagged', value: true }], keepInput: true }, position: { x: 200, y: 0 } },
      {
        id: 'check',
        type: 'logic.if',
        version: 1,
        name: 'Check amount',
        params: { combine: 'all', conditions: [{ left: '{{ trigger.amount }}', operator: 'gte', right: 0 }] },
        position: { x: 400, y: 0 },
      },
      { id: 'shape', type: 'data.set', version: 1, name: 'Shape', params: { fields: [{ name: 'index', value: '{{ trigger.index }}' }], keepInput: false }, position: { x: 600, y: 0 } },
      {
        id: 'call',
        type: 'http.request',
        version: 1,
        name: 'Call sink',
        params: {
          method: 'POST',
          url: sinkUrl,
          headers: [{ name: 'Idempotency-Key', value: '{{ execution.id }}' }],
          body: { type: 'json', json: '{{ input }}' },
        },
        retry: { maxAttempts: 3, delayMs: 1_000 },
        position: { x: 800, y: 0 },
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
