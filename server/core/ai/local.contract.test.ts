/**
 * ai_local (Ollama's native API through ollama-ai-provider-v2) against the fake Ollama server, on the
 * loopback address the instance allows (`allowPrivate`), with no key.
 */
import { describeProviderContract } from '../../testing/ai-fakes/contract-suite';

describeProviderContract({
  provider: 'ai_local',
  model: 'llama3.2',
  generatePath: () => /^\/api\/chat$/,
  keyHeader: null,
  toolsOf: (body) => body.tools.map((tool: any) => ({ name: tool.function.name, description: tool.function.description, schema: tool.function.parameters })),
  outputSchemaOf: (body) => body.format,
  systemOf: (body) => body.messages.find((message: any) => message.role === 'system')?.content,
  // Ollama reports prompt_eval_count and eval_count only.
  reportsReasoning: false,
  hasContentFilter: false,
  listing: { served: ['llama3.2:latest', 'qwen3:8b'], expected: ['llama3.2:latest', 'qwen3:8b'] },
  net: { allowPrivate: true },
});
