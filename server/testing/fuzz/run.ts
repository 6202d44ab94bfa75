/**
 * Sends fuzz cases in-process through the application's routing (see dispatch.ts), checks every
 * answer (check.ts) and keeps the figures and the failures for the report.
 */
import { clientIpHeader } from '../../core/http/client-headers';
import type { FuzzCase } from './cases';
import { RawSegment, type BodyTemplate, type RequestTemplate } from './templates';
import { checkAnswer, type ProblemKind } from './check';
import type { Dispatcher } from './dispatch';
import type { FuzzOperation } from './operations';
import { materialize, preview, toJsonText } from './values';
import { pathParamRef } from './hints';
import type { Credential, World } from './world';

export interface Failure {
  operation: string;
  kind: ProblemKind;
  status: number;
  code: string | null;
  family: string;
  label: string;
  credential: string;
  request: string;
  body: string;
  detail: string;
}

export class FuzzStats {
  requests = 0;
  readonly byStatus = new Map<number, number>();
  readonly byCode = new Map<string, number>();
  /** Per operation: answers by status, to see how far the fuzz reaches (beyond 400/401/403). */
  readonly byOperation = new Map<string, Map<number, number>>();
  readonly failures: Failure[] = [];
  /** Error codes answered by an operation that its document entry does not list. */
  readonly undocumented = new Map<string, Set<string>>();
  unsendable = 0;

  count(status: number, code: string | null, operation?: string): void {
    this.requests++;
    if (operation) {
      let statuses = this.byOperation.get(operation);
      if (!statuses) this.byOperation.set(operation, (statuses = new Map()));
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
    if (code) this.byCode.set(code, (this.byCode.get(code) ?? 0) + 1);
  }
}

/** Distinct client addresses, so the per-IP sign-in limit does not hide the handlers behind 429s. */
let ipCounter = 0;
function nextClientIp(): string {
  ipCounter++;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

class UnsendableCase extends Error {}

/**
 * encodeURIComponent, except that a lone surrogate (which it refuses) is written as the three bytes
 * a careless UTF-8 encoder would produce (%ED%A0%80 for U+D800): bytes that are not valid UTF-8.
 */
export function encodeLoosely(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    let out = '';
    for (const char of text) {
      const unit = char.charCodeAt(0);
      if (char.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
        out += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
      } else {
        out += encodeURIComponent(char);
      }
    }
    return out;
  }
}

export interface WireRequest {
  request: Request;
  used: Set<string>;
  method: string;
  url: string;
  bodyPreview: string;
}

function encodeBody(body: BodyTemplate, value: unknown): { bytes: Uint8Array | undefined; contentType: string | null } {
  if (body.kind === 'none') return { bytes: undefined, contentType: null };
  if (body.kind === 'raw') return { bytes: typeof body.data === 'string' ? new TextEncoder().encode(body.data) : body.data, contentType: body.contentType };
  const text = toJsonText(value);
  const transformed = body.transformText ? body.transformText(text) : text;
  return {
    bytes: typeof transformed === 'string' ? new TextEncoder().encode(transformed) : transformed,
    contentType: body.contentType === undefined ? 'application/json' : body.contentType,
  };
}

export async function buildRequest(operation: FuzzOperation, template: RequestTemplate, world: World, credentialHeaders: Record<string, string>): Promise<WireRequest> {
  const used = new Set<string>();
  const resolve = (name: string) => world.resolve(name);
  let path = operation.path;
  for (const parameter of operation.pathParams) {
    const value = template.pathParams[parameter.name];
    const segment = value instanceof RawSegment ? value.text : encodeLoosely(String(await materialize(value, resolve, used)));
    path = path.replace(`{${parameter.name}}`, () => segment);
  }
  const query: string[] = [];
  for (const entry of template.query) {
    const value = String(await materialize(entry.value, resolve, used));
    query.push(entry.raw ? `${entry.name}=${value}` : `${encodeLoosely(entry.name)}=${encodeLoosely(value)}`);
  }
  const url = `http://localhost${path}${query.length ? `?${query.join('&')}` : ''}`;
  const headers = new Headers();
  try {
    for (const [name, value] of Object.entries(credentialHeaders)) headers.set(name, value);
    for (const [name, value] of Object.entries(template.headers)) headers.set(name, String(await materialize(value, resolve, used)));
  } catch (error) {
    throw new UnsendableCase(`header not representable: ${(error as Error).message}`);
  }
  headers.set(clientIpHeader, nextClientIp());
  const bodyValue = template.body.kind === 'json' ? await materialize(template.body.value, resolve, used) : undefined;
  const { bytes, contentType } = encodeBody(template.body, bodyValue);
  if (contentType !== null) headers.set('content-type', contentType);
  const request = new Request(url, { method: operation.method, headers, body: bytes as Uint8Array<ArrayBuffer> | undefined });
  const bodyPreview = bytes ? preview(Buffer.from(bytes.subarray(0, 400)).toString('utf8'), 200) : '';
  return { request, used, method: operation.method, url: preview(url, 240), bodyPreview };
}

export interface RunContext {
  dispatch: Dispatcher;
  world: World;
  stats: FuzzStats;
}

interface Answer {
  status: number;
  contentType: string | null;
  bytes: Uint8Array;
  /** Why the body could not be read whole (a stream that failed after the status was sent). */
  streamError: string | null;
}

async function answerOf(dispatch: Dispatcher, request: Request): Promise<Answer> {
  let response: Response;
  try {
    response = await dispatch(request);
  } catch (error) {
    // A handler that throws instead of answering: Next would answer a bare 500.
    return { status: 500, contentType: null, bytes: new Uint8Array(), streamError: `handler threw: ${(error as Error).message}` };
  }
  const contentType = response.headers.get('content-type');
  try {
    return { status: response.status, contentType, bytes: new Uint8Array(await response.arrayBuffer()), streamError: null };
  } catch (error) {
    return { status: response.status, contentType, bytes: new Uint8Array(), streamError: (error as Error).message };
  }
}

/** Sends one case and records its verdict. */
export async function runCase(context: RunContext, operation: FuzzOperation, fuzzCase: FuzzCase): Promise<void> {
  const { world, stats, dispatch } = context;
  const credential = fuzzCase.replaceCredentialHeaders ? { headers: {}, pieces: [] } : await world.headersFor(fuzzCase.credential);
  let wire: WireRequest;
  try {
    wire = await buildRequest(operation, fuzzCase.template, world, credential.headers);
  } catch (error) {
    if (error instanceof UnsendableCase) {
      stats.unsendable++;
      return;
    }
    throw error;
  }
  const { status, contentType, bytes, streamError } = await answerOf(dispatch, wire.request);
  const declared = operation.successMediaTypes.get(status);
  const verdict = streamError
    ? { code: null, problem: { kind: (status >= 500 ? 'server_error' : 'broken_stream') as ProblemKind, detail: streamError } }
    : checkAnswer({ status, contentType, bytes }, declared, status >= 300 && status < 400 && operation.statuses.has(status));
  stats.count(status, verdict.code, operation.id);
  if (verdict.code && status < 500 && !operation.documentedCodes.has(verdict.code)) {
    let codes = stats.undocumented.get(operation.id);
    if (!codes) stats.undocumented.set(operation.id, (codes = new Set()));
    codes.add(verdict.code);
  }
  if (verdict.problem) {
    stats.failures.push({
      operation: operation.id,
      kind: verdict.problem.kind,
      status,
      code: verdict.code,
      family: fuzzCase.family,
      label: preview(fuzzCase.label, 200),
      credential: fuzzCase.replaceCredentialHeaders ? 'custom credential headers' : fuzzCase.credential.label,
      request: `${wire.method} ${wire.url}`,
      body: wire.bodyPreview,
      detail: verdict.problem.detail,
    });
  }
  if (status >= 200 && status < 300 && operation.method !== 'GET') {
    const sessionBound = operation.access.kind === 'session' || operation.access.kind === 'noKeys';
    world.markUsedAfterSuccess([...wire.used, ...(sessionBound ? credential.pieces : [])]);
    noteCreated(world, bytes);
  }
}

function noteCreated(world: World, bytes: Uint8Array): void {
  try {
    const answer = JSON.parse(Buffer.from(bytes).toString('utf8')) as { table?: { id?: unknown } };
    if (typeof answer?.table?.id === 'string') world.noteCreatedTable(answer.table.id);
  } catch {
    // Not JSON: nothing was created that needs removing.
  }
}

/**
 * A real cursor for an operation with a cursor parameter: the operation itself asked for one item
 * (after some activity, so the list has more than a page), its answer's `nextCursor`. The fuzz then
 * damages it (cases.ts) so decoding is exercised on both well-formed and broken cursors.
 */
export function defineCursorPiece(context: RunContext, operation: FuzzOperation, credential: Credential): void {
  const { world, dispatch } = context;
  world.define(`cursor:${operation.id}`, async () => {
    await world.resolve('invitation.id');
    await world.resolve('table.id');
    const used = new Set<string>();
    let path = operation.path;
    for (const parameter of operation.pathParams) {
      const ref = pathParamRef(operation, parameter.name);
      path = path.replace(`{${parameter.name}}`, encodeURIComponent(String(ref === null ? 'x' : await materialize(ref, (name) => world.resolve(name), used))));
    }
    const limit = operation.queryParams.some((parameter) => parameter.name === 'limit') ? '?limit=1' : '';
    const { headers } = await world.headersFor(credential);
    const response = await dispatch(new Request(`http://localhost${path}${limit}`, { headers: { ...headers, [clientIpHeader]: '127.0.0.1' } }));
    const answer = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    const found = Object.entries(answer ?? {}).find(([key, value]) => /cursor/i.test(key) && typeof value === 'string');
    return { value: found ? found[1] : Buffer.from('{}').toString('base64url') };
  });
}
