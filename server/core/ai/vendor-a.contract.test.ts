/** ai_vendor_a (OpenAI chat completions) against the fake OpenAI server. */
import { describeProviderContract } from '../../testing/ai-fakes/contract-suite';

describeProviderContract({
  provider: 'ai_vendor_a',
  model: 'gpt-4.1-mini',
  generatePath: () => /^\/v1\/chat\/completions$/,
  keyHeader: { name: 'authorization', value: (key) => `Bearer ${key}` },
  toolsOf: (body) => body.tools.map((tool: any) => ({ name: tool.function.name, description: tool.function.description, schema: tool.function.parameters })),
  outputSchemaOf: (body) => {
    if (body.response_format?.type !== 'json_schema') throw new Error('no json_schema response_format');
    return body.response_format.json_schema.schema;
  },
  systemOf: (body) => body.messages.find((message: any) => message.role === 'system' || message.role === 'developer')?.content,
  reportsReasoning: true,
  hasContentFilter: true,
  listing: { served: ['gpt-4.1-mini', 'gpt-4.1', 'gpt-4.1'], expected: ['gpt-4.1', 'gpt-4.1-mini'] },
});
