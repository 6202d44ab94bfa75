/** ai_vendor_b (Anthropic messages) against the fake Anthropic server. */
import { describeProviderContract } from '../../testing/ai-fakes/contract-suite';

describeProviderContract({
  provider: 'ai_vendor_b',
  model: 'claude-sonnet-4-5',
  generatePath: () => /^\/v1\/messages$/,
  keyHeader: { name: 'x-api-key', value: (key) => key },
  toolsOf: (body) => body.tools.map((tool: any) => ({ name: tool.name, description: tool.description, schema: tool.input_schema })),
  outputSchemaOf: (body) => {
    if (body.output_config?.format?.type !== 'json_schema') throw new Error('no output_config.format');
    return body.output_config.format.schema;
  },
  systemOf: (body) => (typeof body.system === 'string' ? body.system : body.system?.map((part: any) => part.text).join('')),
  // The Messages API counts thinking inside output_tokens and reports no separate figure.
  reportsReasoning: false,
  hasContentFilter: true,
  listing: { served: ['claude-sonnet-4-5', 'claude-haiku-4-5'], expected: ['claude-haiku-4-5', 'claude-sonnet-4-5'] },
});
