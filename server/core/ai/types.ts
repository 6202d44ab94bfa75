/**
 * The provider layer's vocabulary (server/core/ai/): which vendor a connection speaks to, where, with
 * which key, and the shapes of a model call. The first three types are the interface the `llm` domain
 * relies on; keep them exactly as they are.
 */
import type { z } from 'zod';

export type AiProvider = 'ai_vendor_a' | 'ai_vendor_b' | 'ai_vendor_c' | 'ai_vendor_d' | 'ai_vendor_e' | 'ai_local' | 'ai_generic_compatible';
export interface AiEndpoint { provider: AiProvider; baseUrl: string | null; apiKey: string | null }
export interface AiModelList { models: string[]; supportsTools: boolean }

export const aiProviders: readonly AiProvider[] = [
  'ai_vendor_a',
  'ai_vendor_b',
  'ai_vendor_c',
  'ai_vendor_d',
  'ai_vendor_e',
  'ai_local',
  'ai_generic_compatible',
];

/**
 * How outbound connections of a call are checked by the network guard (server/core/net/).
 * `allowPrivate` is honoured for `ai_local` only (the instance's own network, when the instance
 * allows it); every other provider reaches public addresses only, whatever is passed here.
 */
export interface AiNetOptions {
  allowPrivate?: boolean;
  /**
   * Opens exact private addresses (the tests' fake vendor servers on 127.0.0.1), as the network
   * guard's `allowAddress`. Metadata, multicast and reserved addresses stay refused. Never set from
   * member input.
   */
  allowAddress?: (host: string, address: string) => boolean;
}

/** A message of the conversation sent to the model (the system prompt travels apart). */
export type AiMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: AiToolCall[] }
  | { role: 'tool'; toolCallId: string; toolName: string; result: unknown };

/** A tool the model may call; the call is returned, never executed here. */
export interface AiToolDefinition {
  description: string;
  /** A zod object schema of the tool's input (its descriptions reach the model). */
  input: z.ZodType;
}

export interface AiToolCall {
  id: string;
  name: string;
  input: unknown;
}

export type AiFinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';

export interface AiUsage {
  inputTokens: number;
  outputTokens: number;
  reasoningTokens: number | null;
}

export interface CallModelInput<OBJECT = unknown> {
  endpoint: AiEndpoint;
  model: string;
  system?: string;
  messages: AiMessage[];
  tools?: Record<string, AiToolDefinition>;
  /** A zod schema: the answer is asked as structured output and validated into `object`. */
  output?: z.ZodType<OBJECT>;
  maxOutputTokens?: number;
  /** Cancels the call; a timeout signal (AbortSignal.timeout) makes the per-call timeout. */
  signal: AbortSignal;
  /** Text deltas as they stream in; when given, the call streams. */
  onDelta?: (delta: string) => void;
  net?: AiNetOptions;
}

export interface CallModelResult<OBJECT = unknown> {
  text: string;
  object?: OBJECT;
  toolCalls: AiToolCall[];
  finishReason: AiFinishReason;
  usage: AiUsage;
  /** The model that answered, as the vendor named it (or the one asked for). */
  model: string;
  latencyMs: number;
}
