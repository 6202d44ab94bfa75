/** ai_vendor_e (Groq, OpenAI-compatible chat completions) against the fake OpenAI-compatible server. */
import { describeProviderContract } from '../../testing/ai-fakes/contract-suite';

describeProviderContract({
  provider: 'ai_vendor_e',
  model: 'llama-3.3-70b-versatile',
  generatePath: () => /^\/v1\/chat\/completions$/,
  keyHeader: { name: 'authorization', value: (key) => `Bearer ${key}` },
  toolsOf: (body) => body.tools.map((tool: any) => ({ name: tool.function.name, description: tool.function.description, schema: tool.function.parameters })),
  outputSchemaOf: (body) => {
    if (body.response_format?.type !== 'json_schema') throw new Error('no json_schema response_format');
    return body.response_format.json_schema.schema;
  },
  systemOf: (body) => body.messages.find((message: any) => message.role === 'system')?.content,
  reportsReasoning: true,
  hasContentFilter: true,
  listing: { served: ['llama-3.3-70b-versatile', 'openai/gpt-oss-20b'], expected: ['llama-3.3-70b-versatile', 'openai/gpt-oss-20b'] },
});
