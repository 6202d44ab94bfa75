/**
 * One model call through the AI SDK: text, tool calls (returned, not run), structured output checked
 * against a zod schema, streamed text deltas, usage and latency. No retries here (`maxRetries: 0`):
 * the engine owns retries and postponements, from the AiCallError this throws for every failure.
 */
import { generateText, Output, streamText } from 'ai';
import { AiCallError, classifyAiError } from './errors';
import { createLanguageModel } from './language-model';
import { toFinishReason, toModelMessages, toToolCalls, toToolSet, toUsage } from './messages';
import { aiFetch, checkedBaseUrl } from './transport';
import type { AiFinishReason, CallModelInput, CallModelResult } from './types';

export const maxOutputTokensCeiling = 128_000;

/**
 * Calls `input.model` on `input.endpoint`. Streams (and reports text deltas to `onDelta`) when
 * `onDelta` is given. Throws AiCallError: see errors.ts for the kinds. A finish by the vendor's
 * content filter is a `refused` error, not an answer.
 */
export async function callModel<OBJECT = unknown>(input: CallModelInput<OBJECT>): Promise<CallModelResult<OBJECT>> {
  const { endpoint, signal } = input;
  const provider = endpoint.provider;
  const started = performance.now();
  try {
    signal.throwIfAborted();
    if (input.maxOutputTokens !== undefined && !(Number.isInteger(input.maxOutputTokens) && input.maxOutputTokens >= 1 && input.maxOutputTokens <= maxOutputTokensCeiling)) {
      throw new AiCallError('bad_request', { provider });
    }
    const model = createLanguageModel(endpoint, checkedBaseUrl(endpoint), input.model, aiFetch(endpoint, input.net));
    const settings = {
      model,
      system: input.system,
      messages: toModelMessages(input.messages),
      tools: toToolSet(input.tools),
      output: input.output ? Output.object({ schema: input.output }) : undefined,
      maxOutputTokens: input.maxOutputTokens,
      // ollama-ai-provider-v2 sends the SDK's bound as a top-level `max_output_tokens`, which Ollama's
      // /api/chat ignores: Ollama reads `options.num_predict`.
      providerOptions: provider === 'ai_local' && input.maxOutputTokens !== undefined ? { ollama: { options: { num_predict: input.maxOutputTokens } } } : undefined,
      abortSignal: signal,
      maxRetries: 0,
    };

    let text: string;
    let object: OBJECT | undefined;
    let finishReason: AiFinishReason;
    let result: Omit<CallModelResult<OBJECT>, 'text' | 'object' | 'finishReason' | 'latencyMs'>;

    if (input.onDelta) {
      const onDelta = input.onDelta;
      const stream = streamText({ ...settings, onError: () => {} });
      for await (const part of stream.fullStream) {
        if (part.type === 'text-delta') onDelta(part.text);
        else if (part.type === 'error') throw part.error;
        else if (part.type === 'abort') signal.throwIfAborted();
      }
      finishReason = toFinishReason(await stream.finishReason);
      text = await stream.text;
      if (finishReason === 'content-filter') throw new AiCallError('content_filter', { provider });
      if (input.output && finishReason !== 'tool-calls') object = (await stream.output) as OBJECT;
      result = {
        toolCalls: toToolCalls(await stream.toolCalls),
        usage: toUsage(await stream.totalUsage),
        model: (await stream.response).modelId || input.model,
      };
    } else {
      const answer = await generateText(settings);
      finishReason = toFinishReason(answer.finishReason);
      text = answer.text;
      if (finishReason === 'content-filter') throw new AiCallError('content_filter', { provider });
      if (input.output && finishReason !== 'tool-calls') object = answer.output as OBJECT;
      result = { toolCalls: toToolCalls(answer.toolCalls), usage: toUsage(answer.totalUsage), model: answer.response.modelId || input.model };
    }
    return { text, ...(object !== undefined ? { object } : {}), finishReason, ...result, latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    throw classifyAiError(error, { provider, signal });
  }
}
