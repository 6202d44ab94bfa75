/**
 * What every answer must be, whatever the input: never a 5xx; an error (4xx) is JSON in the envelope
 * `{"error":{"code","message","details"}}` with a code of the catalogue whose status is the HTTP
 * status; a success carries the media type the document declares (JSON that parses, for JSON).
 */
import { errorCatalogue, type ErrorCode } from '../../core/errors/catalogue';

export type ProblemKind =
  | 'server_error'
  | 'not_json'
  | 'not_envelope'
  | 'unknown_code'
  | 'status_mismatch'
  | 'bad_success_body'
  | 'unexpected_status'
  | 'broken_stream'
  | 'no_answer';

export interface Verdict {
  /** The envelope's code, when the answer had one. */
  code: string | null;
  problem: { kind: ProblemKind; detail: string } | null;
}

export interface AnswerShape {
  status: number;
  contentType: string | null;
  bytes: Uint8Array;
}

function parseJson(bytes: Uint8Array): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) };
  } catch {
    return { ok: false };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function envelopeCode(value: unknown): { code: unknown; problem: string | null } {
  if (!isObject(value) || Object.keys(value).join() !== 'error' || !isObject(value.error)) {
    return { code: null, problem: 'the body is not {"error":{...}}' };
  }
  const { code, message, details } = value.error;
  if (typeof code !== 'string') return { code, problem: 'error.code is not a string' };
  if (typeof message !== 'string' || message === '') return { code, problem: 'error.message is not a non-empty string' };
  if (!isObject(details)) return { code, problem: 'error.details is not an object' };
  return { code, problem: null };
}

const isJsonMediaType = (mediaType: string | null) => Boolean(mediaType && /^application\/(.+\+)?json\b/i.test(mediaType));

/** `declaredRedirect`: the document declares this 3xx status for the operation (a plain route that redirects the browser). */
export function checkAnswer(answer: AnswerShape, declaredSuccessMediaType?: string, declaredRedirect = false): Verdict {
  const { status, contentType, bytes } = answer;
  if (status >= 400) {
    const parsed = isJsonMediaType(contentType) ? parseJson(bytes) : { ok: false as const };
    const envelope = parsed.ok ? envelopeCode(parsed.value) : null;
    const code = typeof envelope?.code === 'string' ? envelope.code : null;
    if (status >= 500) return { code, problem: { kind: 'server_error', detail: `status ${status}` } };
    if (!parsed.ok) return { code, problem: { kind: 'not_json', detail: `content-type ${contentType ?? 'none'}, ${bytes.byteLength} bytes` } };
    if (envelope!.problem) return { code, problem: { kind: 'not_envelope', detail: envelope!.problem } };
    if (!Object.hasOwn(errorCatalogue, code!)) return { code, problem: { kind: 'unknown_code', detail: `code ${code} is not in the catalogue` } };
    const expected = errorCatalogue[code as ErrorCode][0];
    if (expected !== status) return { code, problem: { kind: 'status_mismatch', detail: `code ${code} is ${expected} in the catalogue, answered ${status}` } };
    return { code, problem: null };
  }
  if (status >= 300 && status < 400 && declaredRedirect) return { code: null, problem: null };
  if (status < 200 || status >= 300) return { code: null, problem: { kind: 'unexpected_status', detail: `status ${status}` } };
  if (declaredSuccessMediaType && isJsonMediaType(declaredSuccessMediaType) && status !== 204) {
    if (!isJsonMediaType(contentType) || !parseJson(bytes).ok) {
      return { code: null, problem: { kind: 'bad_success_body', detail: `declared ${declaredSuccessMediaType}, got ${contentType ?? 'none'}` } };
    }
  } else if (declaredSuccessMediaType && declaredSuccessMediaType !== '*/*' && contentType && !contentType.toLowerCase().startsWith(declaredSuccessMediaType.toLowerCase())) {
    return { code: null, problem: { kind: 'bad_success_body', detail: `declared ${declaredSuccessMediaType}, got ${contentType}` } };
  }
  return { code: null, problem: null };
}
