/**
 * The providers that speak OpenAI's chat completions against the fake OpenAI-compatible server:
 * ai_vendor_a (OpenAI itself), ai_vendor_d (Mistral), ai_vendor_e (Groq) and ai_generic_compatible
 * (any such server at a required base URL). One wire, so one set of accessors; each provider brings
 * its model names and what its model listing serves.
 */
import { describeProviderContract } from '../../testing/ai-fakes/contract-suite';

const chatCompletionsWire = {
  generatePath: () => /^\/v1\/chat\/completions$/,
  keyHeader: { name: 'authorization', value: (key: string) => `Bearer ${key}` },
  toolsOf: (body: any) => body.tools.map((tool: any) => ({ name: tool.function.name, description: tool.function.description, schema: tool.function.parameters })),
  outputSchemaOf: (body: any) => {
    if (body.response_format?.type !== 'json_schema') throw new Error('no json_schema response_format');
    return body.response_format.json_schema.schema;
  },
  systemOf: (body: any) => body.messages.find((message: any) => message.role === 'system')?.content,
  reportsReasoning: true,
  hasContentFilter: true,
} as const;

describeProviderContract({
  ...chatCompletionsWire,
  provider: 'ai_vendor_a',
  model: 'gpt-4.1-mini',
  // OpenAI's own API may take the system prompt as a `developer` message; the compatible ones may not.
  systemOf: (body: any) => body.messages.find((message: any) => message.role === 'system' || message.role === 'developer')?.content,
  listing: { served: ['gpt-4.1-mini', 'gpt-4.1', 'gpt-4.1'], expected: ['gpt-4.1', 'gpt-4.1-mini'] },
});

describeProviderContract({
  ...chatCompletionsWire,
  provider: 'ai_vendor_d',
  model: 'mistral-small-latest',
  listing: { served: ['mistral-small-latest', 'mistral-large-latest'], expected: ['mistral-large-latest', 'mistral-small-latest'] },
});

describeProviderContract({
  ...chatCompletionsWire,
  provider: 'ai_vendor_e',
  model: 'llama-3.3-70b-versatile',
  listing: { served: ['llama-3.3-70b-versatile', 'openai/gpt-oss-20b'], expected: ['llama-3.3-70b-versatile', 'openai/gpt-oss-20b'] },
});

describeProviderContract({
  ...chatCompletionsWire,
  provider: 'ai_generic_compatible',
  model: 'qwen2.5-7b-instruct',
  listing: { served: ['qwen2.5-7b-instruct'], expected: ['qwen2.5-7b-instruct'] },
});
