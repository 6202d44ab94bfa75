/**
 * The HTTP server under every fake AI vendor: node:http on 127.0.0.1 with a random port, a queue of
 * scripted replies per test (text, tool call, JSON object, error status, 429 with Retry-After, a slow
 * reply for timeouts, a content-filter refusal), and a record of every request received (headers,
 * path, parsed body) for assertions. The protocol modules beside it turn a reply into the vendor's
 * real wire format, as JSON or as a stream (SSE or NDJSON).
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBoundedBody } from '../fakes/bounded-body';

export interface FakeUsage {
  input: number;
  /** Output tokens, reasoning included (as OpenAI, Anthropic and our AiUsage count them). */
  output: number;
  reasoning?: number;
}

export type FakeReply =
  | { kind: 'text'; text: string; usage?: FakeUsage; model?: string; finish?: 'stop' | 'length' }
  | { kind: 'tool'; name: string; input: Record<string, unknown>; id?: string; usage?: FakeUsage; model?: string }
  /** A structured answer: the JSON text (or, for Anthropic's JSON-tool mode, the `json` tool's input). */
  | { kind: 'json'; value: unknown; usage?: FakeUsage; model?: string }
  /** The vendor's content filter stopped the answer (a 200 with the vendor's refusal finish). */
  | { kind: 'refusal'; usage?: FakeUsage; model?: string }
  /** An error status; `body` replaces the vendor-shaped error body; `echoKey` quotes the received key in it, as some vendors do. */
  | { kind: 'error'; status: number; message?: string; type?: string; body?: unknown; headers?: Record<string, string>; echoKey?: boolean }
  | { kind: 'rate_limit'; retryAfter?: string; retryAfterMs?: string }
  /** Waits `delayMs` (or until the client goes away) before answering `then` (default a text). */
  | { kind: 'slow'; delayMs: number; then?: FakeReply }
  /** An oversized answer: `bytes` of filler (a never-ending SSE line for a stream, a JSON string otherwise), then the end. */
  | { kind: 'huge'; bytes: number; status?: number }
  /** An answer that never ends: `chunkBytes` every `everyMs` until the client goes away (an endless error body). */
  | { kind: 'drip'; status: number; chunkBytes?: number; everyMs?: number };

/** The replies that answer with content (the others are failures or delays). */
export type FakeAnswer = Exclude<FakeReply, { kind: 'error' | 'rate_limit' | 'slow' | 'huge' | 'drip' }>;

export interface RecordedAiRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when none or not JSON). */
  body: any;
  /** Whether the request asked for a stream (by body flag or by path). */
  stream: boolean;
}

export interface WireRequest extends RecordedAiRequest {
  /** The key the client sent the vendor's way, for `echoKey`. */
  key: string | undefined;
}

export type Route = 'generate' | 'models' | null;

/** What a protocol module provides to the server. */
export interface VendorWire {
  name: string;
  route(method: string, path: string): Route;
  isStream(request: { path: string; query: URLSearchParams; body: any }): boolean;
  keyOf(headers: IncomingHttpHeaders, query: URLSearchParams): string | undefined;
  /** The listing body for `models`. */
  models(names: string[]): unknown;
  /** A non-streamed answer body. */
  json(reply: FakeAnswer, request: WireRequest): unknown;
  /** The streamed answer as wire chunks (each a complete SSE event or NDJSON line). */
  stream(reply: FakeAnswer, request: WireRequest): string[];
  streamContentType: string;
  errorBody(status: number, message: string, type: string | undefined): unknown;
  /** Default vendor error type for a status (`authentication_error`, `RESOURCE_EXHAUSTED`...). */
  errorType(status: number): string;
}

const maxBodyBytes = 5 * 1024 * 1024;

export const defaultUsage: FakeUsage = { input: 12, output: 7, reasoning: 0 };

export class FakeVendorServer {
  readonly requests: RecordedAiRequest[] = [];
  /** Names answered by the model listing. */
  models: string[] = [];
  private replies: FakeReply[] = [];
  private listingReplies: FakeReply[] = [];
  private server: Server | null = null;
  private readonly timers = new Set<NodeJS.Timeout>();
  origin = '';

  constructor(readonly wire: VendorWire) {}

  /** The base URL a connection would store for this fake (protocol modules may add a path). */
  get baseUrl(): string {
    return this.origin;
  }

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      this.serve(request, response).catch(() => {
        if (!response.headersSent) response.statusCode = 500;
        response.end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.origin = `http://127.0.0.1:${port}`;
    return this;
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Queues replies for the next generate requests, in order. With the queue empty, a short text answers. */
  reply(...replies: FakeReply[]): this {
    this.replies.push(...replies);
    return this;
  }

  /** Queues failures (`error`, `rate_limit`, `slow`) for the next model listing requests; otherwise the listing answers `models`. */
  replyToListing(...replies: FakeReply[]): this {
    this.listingReplies.push(...replies);
    return this;
  }

  /** Forgets queued replies and recorded requests. */
  reset(): void {
    this.replies = [];
    this.listingReplies = [];
    this.requests.length = 0;
  }

  get lastRequest(): RecordedAiRequest | undefined {
    return this.requests.at(-1);
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.origin);
    const text = await readBoundedBody(request, response, maxBodyBytes);
    if (text === null) return;
    let body: any;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    const method = request.method ?? 'GET';
    const stream = this.wire.isStream({ path: url.pathname, query: url.searchParams, body });
    const recorded: RecordedAiRequest = { method, path: url.pathname, query: url.searchParams, headers: request.headers, body, stream };
    this.requests.push(recorded);
    const wireRequest: WireRequest = { ...recorded, key: this.wire.keyOf(request.headers, url.searchParams) };

    const route = this.wire.route(method, url.pathname);
    if (route === null) {
      this.sendJson(response, 404, this.wire.errorBody(404, `No route ${method} ${url.pathname}`, this.wire.errorType(404)));
      return;
    }
    let reply: FakeReply | undefined = route === 'models' ? this.listingReplies.shift() : (this.replies.shift() ?? { kind: 'text', text: 'Hello from the fake.' });
    while (reply?.kind === 'slow') {
      const slow: FakeReply & { kind: 'slow' } = reply;
      const gone = await this.wait(slow.delayMs, response);
      if (gone) return;
      reply = slow.then ?? (route === 'models' ? undefined : { kind: 'text', text: 'A slow hello.' });
    }
    if (reply === undefined) {
      this.sendJson(response, 200, this.wire.models(this.models));
      return;
    }
    switch (reply.kind) {
      case 'error': {
        const message = reply.echoKey && wireRequest.key ? `Incorrect API key provided: ${wireRequest.key}.` : (reply.message ?? `Error ${reply.status}`);
        this.sendJson(response, reply.status, reply.body ?? this.wire.errorBody(reply.status, message, reply.type ?? this.wire.errorType(reply.status)), reply.headers);
        return;
      }
      case 'huge':
        await this.sendHuge(response, reply, stream);
        return;
      case 'drip':
        await this.sendDrip(response, reply);
        return;
      case 'rate_limit': {
        const headers: Record<string, string> = {};
        if (reply.retryAfter !== undefined) headers['retry-after'] = reply.retryAfter;
        if (reply.retryAfterMs !== undefined) headers['retry-after-ms'] = reply.retryAfterMs;
        this.sendJson(response, 429, this.wire.errorBody(429, 'Rate limit reached. Please try again later.', this.wire.errorType(429)), headers);
        return;
      }
      default:
        if (route === 'models') {
          this.sendJson(response, 200, this.wire.models(this.models));
          return;
        }
        if (stream) await this.sendStream(response, this.wire.stream(reply, wireRequest));
        else this.sendJson(response, 200, this.wire.json(reply, wireRequest));
    }
  }

  private sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    response.statusCode = status;
    response.setHeader('content-type', 'application/json');
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    response.end(JSON.stringify(body));
  }

  private async sendStream(response: ServerResponse, chunks: string[]): Promise<void> {
    response.statusCode = 200;
    response.setHeader('content-type', this.wire.streamContentType);
    response.setHeader('cache-control', 'no-cache');
    response.flushHeaders();
    for (const chunk of chunks) {
      if (response.destroyed) return;
      response.write(chunk);
      // Let each chunk leave on its own, as a vendor's stream does.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    response.end();
  }

  private async sendHuge(response: ServerResponse, reply: { bytes: number; status?: number }, stream: boolean): Promise<void> {
    response.statusCode = reply.status ?? 200;
    response.setHeader('content-type', stream ? this.wire.streamContentType : 'application/json');
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    const write = async (data: Buffer | string) => {
      if (response.destroyed) return false;
      if (!response.write(data)) await drainedOrClosed(response);
      return !response.destroyed;
    };
    if (!(await write(stream ? 'data: {"filler":"' : '{"filler":"'))) return;
    for (let sent = 0; sent < reply.bytes; sent += chunk.length) if (!(await write(chunk))) return;
    response.end(stream ? '"}' : '"}');
  }

  private async sendDrip(response: ServerResponse, reply: { status: number; chunkBytes?: number; everyMs?: number }): Promise<void> {
    response.statusCode = reply.status;
    response.setHeader('content-type', 'application/json');
    response.write('{"error":{"message":"');
    const chunk = Buffer.alloc(reply.chunkBytes ?? 64 * 1024, 'x');
    while (!response.destroyed) {
      response.write(chunk);
      if (await this.wait(reply.everyMs ?? 50, response)) return;
    }
  }

  /** Waits, or stops early when the client closed the connection (answers true then). */
  private wait(ms: number, response: ServerResponse): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        response.off('close', onClose);
        resolve(false);
      }, ms);
      this.timers.add(timer);
      const onClose = () => {
        clearTimeout(timer);
        this.timers.delete(timer);
        resolve(true);
      };
      response.once('close', onClose);
    });
  }
}

/** Server-sent event text: `event:` line when named, `data:` line, blank line. */
export function sse(data: unknown, event?: string, newline = '\n'): string {
  return `${event ? `event: ${event}${newline}` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}${newline}${newline}`;
}

/** Splits text into a few deltas, as a model streams it. */
export function deltasOf(text: string, size = 4): string[] {
  const parts: string[] = [];
  for (let index = 0; index < text.length; index += size) parts.push(text.slice(index, index + size));
  return parts.length > 0 ? parts : [''];
}

export function usageOf(reply: { usage?: FakeUsage }): Required<FakeUsage> {
  const usage = reply.usage ?? defaultUsage;
  return { input: usage.input, output: usage.output, reasoning: usage.reasoning ?? 0 };
}

/**
 * Until the response can take more, or is gone. Whichever comes first removes the other's listener: a huge reply waits
 * here once per megabyte, and the listeners left behind added up on the response (MaxListenersExceededWarning).
 */
function drainedOrClosed(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.once('drain', done);
    response.once('close', done);
  });
}
