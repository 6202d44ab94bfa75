/**
 * One error for every way a model call fails, classified for the engine (spec, Run failure handling):
 * `rate_limited` postpones (with the vendor's Retry-After), `transient` is retried, the others are
 * permanent. Messages are short fixed sentences of ours plus, at most, the vendor's error type as a
 * bare identifier: never a vendor's free text (which can quote the key, as OpenAI's "Incorrect API key
 * provided: sk-…" does), never a header, a URL with a query or a request body. No `cause` is kept, so
 * a logger that walks causes finds nothing either.
 */
import { APICallError, EmptyResponseBodyError, InvalidResponseDataError, JSONParseError, LoadAPIKeyError, NoObjectGeneratedError, NoOutputGeneratedError, RetryError, StreamProviderError, TypeValidationError } from 'ai';
import { isNetworkGuardError } from '../net/network-guard';
import type { AiProvider } from './types';

export type AiErrorKind =
  | 'rate_limited'
  | 'transient'
  | 'auth'
  | 'bad_request'
  | 'refused'
  /** The base URL is refused by the network guard (or is not a usable URL). Permanent. */
  | 'blocked'
  /** The model answered, but not in the asked shape (structured output that fails the schema). Temporary: a new attempt may do better. */
  | 'invalid_output';

export type AiErrorCode =
  | 'rate_limited'
  | 'server_error'
  | 'network'
  | 'host_not_found'
  | 'timeout'
  | 'aborted'
  | 'bad_response'
  /** The vendor's answer is larger than the transport reads (./transport.ts aiResponseBounds). Permanent. */
  | 'response_too_large'
  | 'auth'
  | 'api_key_missing'
  | 'bad_request'
  | 'model_not_found'
  | 'content_filter'
  | 'blocked_address'
  | 'invalid_base_url'
  | 'invalid_output'
  | 'unknown';

const messages: Record<AiErrorCode, string> = {
  rate_limited: 'The AI provider is limiting requests.',
  server_error: 'The AI provider failed to answer.',
  network: 'The AI provider could not be reached.',
  host_not_found: 'The AI provider’s host name could not be resolved.',
  timeout: 'The AI call took too long and was interrupted.',
  aborted: 'The AI call was cancelled.',
  bad_response: 'The AI provider’s answer could not be read.',
  response_too_large: 'The AI provider’s answer is larger than this service reads.',
  auth: 'The AI provider refused the API key.',
  api_key_missing: 'The AI connection has no API key.',
  bad_request: 'The AI provider refused the request.',
  model_not_found: 'The AI provider does not know this model.',
  content_filter: 'The AI provider refused to answer (content filter).',
  blocked_address: 'The AI provider’s address is refused by the network guard.',
  invalid_base_url: 'The AI connection’s base URL is not a valid http(s) URL.',
  invalid_output: 'The model’s answer did not match the expected structure.',
  unknown: 'The AI call failed.',
};

const kindOfCode: Record<AiErrorCode, AiErrorKind> = {
  rate_limited: 'rate_limited',
  server_error: 'transient',
  network: 'transient',
  host_not_found: 'transient',
  timeout: 'transient',
  aborted: 'transient',
  bad_response: 'transient',
  // Like the HTTP node's too large response: permanent (spec, Run failure handling).
  response_too_large: 'bad_request',
  auth: 'auth',
  api_key_missing: 'auth',
  bad_request: 'bad_request',
  model_not_found: 'bad_request',
  content_filter: 'refused',
  blocked_address: 'blocked',
  invalid_base_url: 'blocked',
  invalid_output: 'invalid_output',
  unknown: 'transient',
};

export interface AiCallErrorInit {
  provider?: AiProvider | null;
  status?: number | null;
  retryAfterMs?: number | null;
  /** The vendor's error type or code, kept only when it is a bare identifier. */
  vendorCode?: string | null;
}

export class AiCallError extends Error {
  readonly kind: AiErrorKind;
  readonly code: AiErrorCode;
  readonly provider: AiProvider | null;
  readonly status: number | null;
  /** For `rate_limited`: how long the vendor asked to wait (Retry-After), or null when it did not say. */
  readonly retryAfterMs: number | null;
  readonly vendorCode: string | null;

  constructor(code: AiErrorCode, init: AiCallErrorInit = {}) {
    const vendorCode = safeIdentifier(init.vendorCode);
    const status = init.status ?? null;
    const suffix = [status !== null ? String(status) : null, vendorCode].filter(Boolean).join(', ');
    super(suffix ? `${messages[code]} (${suffix})` : messages[code]);
    this.name = 'AiCallError';
    this.code = code;
    this.kind = kindOfCode[code];
    this.provider = init.provider ?? null;
    this.status = status;
    this.retryAfterMs = init.retryAfterMs ?? null;
    this.vendorCode = vendorCode;
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      kind: this.kind,
      code: this.code,
      provider: this.provider,
      status: this.status,
      retryAfterMs: this.retryAfterMs,
      vendorCode: this.vendorCode,
      message: this.message,
    };
  }
}

export function isAiCallError(error: unknown): error is AiCallError {
  return error instanceof AiCallError;
}

/** How the engine treats the error: postponed (no attempt consumed), retried, or sent to `onError`. */
export function failureFamily(error: AiCallError): 'rate_limited' | 'transient' | 'permanent' {
  switch (error.kind) {
    case 'rate_limited':
      return 'rate_limited';
    case 'transient':
    case 'invalid_output':
      return 'transient';
    case 'auth':
    case 'bad_request':
    case 'refused':
    case 'blocked':
      return 'permanent';
  }
}

function safeIdentifier(value: string | number | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const text = String(value);
  return /^[A-Za-z][A-Za-z0-9_.-]{0,59}$/.test(text) ? text : null;
}

const maxRetryAfterMs = 24 * 60 * 60 * 1000;

/** `Retry-After` (seconds or an HTTP date) or OpenAI's `retry-after-ms`, in milliseconds; null when absent or unreadable. */
export function retryAfterMsOf(headers: Record<string, string> | undefined, now = Date.now()): number | null {
  if (!headers) return null;
  const get = (name: string) => {
    for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value;
    return undefined;
  };
  const ms = get('retry-after-ms');
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.min(Math.ceil(Number(ms)), maxRetryAfterMs);
  const value = get('retry-after')?.trim();
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.min(Math.ceil(Number(value) * 1000), maxRetryAfterMs);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return null;
  return Math.min(Math.max(0, date - now), maxRetryAfterMs);
}

const contentFilterCodes = /content[_-]?(filter|policy|management)|safety|refusal|moderation/i;

/** The vendor's error type/code from an error body (OpenAI/compatibles, Anthropic, Google, Ollama shapes). */
function vendorCodeOf(body: string | undefined, data: unknown): string | null {
  let parsed: unknown = data;
  if (parsed === undefined && body) {
    try {
      parsed = JSON.parse(body);
    } catch {
      return null;
    }
  }
  if (!parsed || typeof parsed !== 'object') return null;
  const error = (parsed as { error?: unknown }).error;
  if (error && typeof error === 'object') {
    // Google: the precise reason rides in `details[].reason` (a bad key is 400 INVALID_ARGUMENT, reason API_KEY_INVALID).
    const details = (error as { details?: unknown }).details;
    if (Array.isArray(details)) {
      for (const detail of details) {
        const reason = detail && typeof detail === 'object' ? (detail as { reason?: unknown }).reason : undefined;
        if (typeof reason === 'string' && safeIdentifier(reason)) return reason;
      }
    }
    const e = error as { code?: unknown; type?: unknown; status?: unknown };
    for (const candidate of [e.code, e.type, e.status]) if (typeof candidate === 'string' && safeIdentifier(candidate)) return candidate;
  }
  return null;
}

/** An error status of a vendor's HTTP answer, classified (used for the calls made outside the SDK: model listings). */
export function aiErrorFromStatus(status: number, provider: AiProvider | null, body: string | undefined, headers: Record<string, string> | undefined): AiCallError {
  return fromStatus(status, provider, vendorCodeOf(body, undefined), headers);
}

function fromStatus(status: number, provider: AiProvider | null, vendorCode: string | null, headers: Record<string, string> | undefined): AiCallError {
  const init = { provider, status, vendorCode };
  if (status === 429) return new AiCallError('rate_limited', { ...init, retryAfterMs: retryAfterMsOf(headers) });
  if (status === 503) {
    const retryAfterMs = retryAfterMsOf(headers);
    if (retryAfterMs !== null) return new AiCallError('rate_limited', { ...init, retryAfterMs });
  }
  if (status === 401 || status === 403 || (vendorCode !== null && /^(API_KEY_INVALID|invalid_api_key|authentication_error)$/.test(vendorCode))) return new AiCallError('auth', init);
  if (vendorCode && contentFilterCodes.test(vendorCode)) return new AiCallError('content_filter', init);
  if (status === 404) return new AiCallError('model_not_found', init);
  if (status === 408 || status === 409 || status === 425) return new AiCallError('server_error', init);
  if (status >= 500) return new AiCallError('server_error', init);
  if (status >= 400) return new AiCallError('bad_request', init);
  return new AiCallError('bad_response', init);
}

function isTimeoutReason(reason: unknown): boolean {
  return reason instanceof Error && (reason.name === 'TimeoutError' || (reason as { code?: unknown }).code === 23);
}

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current !== undefined && current !== null; depth += 1) {
    chain.push(current);
    if (RetryError.isInstance(current)) current = current.lastError;
    else current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

/**
 * Any error thrown by a call (the SDK's, the guard's, undici's, an abort) as an AiCallError. `signal`
 * is the call's own signal: when it fired, the failure is the timeout or the cancellation, whatever
 * the SDK made of it.
 */
export function classifyAiError(error: unknown, context: { provider?: AiProvider | null; signal?: AbortSignal } = {}): AiCallError {
  const provider = context.provider ?? null;
  if (error instanceof AiCallError) return error;
  // Ours anywhere in the chain (the transport's bound, read inside the SDK, which wraps what it reads): already classified.
  const own = causes(error).find((item): item is AiCallError => item instanceof AiCallError);
  if (own) return own;
  if (context.signal?.aborted) return new AiCallError(isTimeoutReason(context.signal.reason) ? 'timeout' : 'aborted', { provider });
  for (const item of causes(error)) {
    if (item instanceof AiCallError) return item;
    if (isNetworkGuardError(item)) {
      if (item.reason === 'host_not_found') return new AiCallError('host_not_found', { provider });
      if (item.reason === 'too_many_redirects') return new AiCallError('bad_response', { provider });
      if (item.reason === 'unsupported_url') return new AiCallError('invalid_base_url', { provider });
      return new AiCallError('blocked_address', { provider });
    }
    if (APICallError.isInstance(item)) {
      if (item.statusCode === undefined) return new AiCallError('network', { provider });
      return fromStatus(item.statusCode, provider, vendorCodeOf(item.responseBody, item.data), item.responseHeaders);
    }
    if (StreamProviderError.isInstance(item)) {
      const vendorCode = safeIdentifier(item.type ?? null) ?? safeIdentifier(item.code ?? null);
      if (item.statusCode !== undefined) return fromStatus(item.statusCode, provider, vendorCode, undefined);
      if (vendorCode && /overloaded|rate_limit/i.test(vendorCode)) return new AiCallError('server_error', { provider, vendorCode });
      return new AiCallError(item.isRetryable ? 'server_error' : 'bad_response', { provider, vendorCode });
    }
    if (NoObjectGeneratedError.isInstance(item) || TypeValidationError.isInstance(item) || JSONParseError.isInstance(item)) {
      return new AiCallError('invalid_output', { provider });
    }
    if (NoOutputGeneratedError.isInstance(item) || InvalidResponseDataError.isInstance(item) || EmptyResponseBodyError.isInstance(item)) {
      return new AiCallError('bad_response', { provider });
    }
    if (LoadAPIKeyError.isInstance(item)) return new AiCallError('api_key_missing', { provider });
    if (item instanceof Error && (item.name === 'AbortError' || item.name === 'TimeoutError')) {
      return new AiCallError(isTimeoutReason(item) ? 'timeout' : 'aborted', { provider });
    }
    const code = (item as { code?: unknown }).code;
    if (typeof code === 'string' && /^(E[A-Z_]+|UND_ERR_[A-Z_]+)$/.test(code)) return new AiCallError('network', { provider });
  }
  return new AiCallError('unknown', { provider });
}

/** `text` with every secret replaced: for the rare place a vendor's text must be kept (never an error message). */
export function redactSecrets(text: string, secrets: readonly (string | null | undefined)[]): string {
  let result = text;
  for (const secret of secrets) if (secret && secret.length >= 4) result = result.split(secret).join('[redacted]');
  return result.replace(/(bearer\s+)[^\s"']+/gi, '$1[redacted]').replace(/\bsk-[A-Za-z0-9_-]{8,}/g, '[redacted]');
}
