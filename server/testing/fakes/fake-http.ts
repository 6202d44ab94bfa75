/**
 * The small HTTP server under the fake provider APIs: node:http on a free 127.0.0.1 port, requests
 * read whole (bounded), answers as JSON or bytes, every request recorded for assertions, and a queue of
 * injected failures the tests arm (`failNext`) that answer before the handler runs.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBoundedBody } from './bounded-body';

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** The body as text ('' when none). */
  text: string;
}

export interface FakeAnswer {
  status: number;
  headers?: Record<string, string>;
  json?: unknown;
  body?: Buffer | string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: string;
  authorization: string | undefined;
  prefer: string | undefined;
}

export interface InjectedFailure {
  status: number;
  /** `Retry-After` header value. */
  retryAfter?: string;
  /** Provider reason (Gmail `errors[].reason`) or code (Graph `error.code`). */
  reason?: string;
  /** Only requests whose path matches. */
  path?: RegExp;
  /** Requests answered this way (default 1). */
  times?: number;
}

const maxBodyBytes = 5 * 1024 * 1024;

export class FakeHttpServer {
  readonly requests: RecordedRequest[] = [];
  private server: Server | null = null;
  private failures: (InjectedFailure & { times: number })[] = [];
  origin = '';

  constructor(
    private readonly handle: (request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>,
    private readonly failureBody: (failure: InjectedFailure) => unknown,
  ) {}

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      this.serve(request, response).catch((error: unknown) => {
        response.statusCode = 500;
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ error: { code: 500, message: String(error) } }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.origin = `http://127.0.0.1:${port}`;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Answers the next matching request(s) with this failure instead of handling them. */
  failNext(failure: InjectedFailure): void {
    this.failures.push({ ...failure, times: failure.times ?? 1 });
  }

  /** Requests recorded so far whose path matches. */
  requestsTo(path: RegExp, method?: string): RecordedRequest[] {
    return this.requests.filter((request) => path.test(request.path) && (!method || request.method === method));
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.origin);
    const text = await readBoundedBody(request, response, maxBodyBytes);
    if (text === null) return;
    this.requests.push({
      method: request.method ?? 'GET',
      path: url.pathname,
      query: url.search,
      authorization: request.headers.authorization,
      prefer: request.headers.prefer as string | undefined,
    });
    const failure = this.failures.find((item) => !item.path || item.path.test(url.pathname));
    let answer: FakeAnswer;
    if (failure) {
      failure.times -= 1;
      if (failure.times <= 0) this.failures.splice(this.failures.indexOf(failure), 1);
      answer = { status: failure.status, json: this.failureBody(failure), headers: failure.retryAfter ? { 'retry-after': failure.retryAfter } : {} };
    } else {
      answer = await this.handle({
        method: request.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: request.headers,
        text,
      });
    }
    response.statusCode = answer.status;
    for (const [name, value] of Object.entries(answer.headers ?? {})) response.setHeader(name, value);
    if (answer.json !== undefined) {
      response.setHeader('content-type', 'application/json; charset=UTF-8');
      response.end(JSON.stringify(answer.json));
    } else {
      response.end(answer.body ?? '');
    }
  }
}

/** The bearer token of a request, or null. */
/**
 * What every fake provider API shares: its HTTP server, the requests it recorded, start and close, and
 * failures injected for the next requests. A subclass answers requests (`handle`) and says how its
 * provider words a failure.
 */
export abstract class FakeApiServer {
  protected readonly http: FakeHttpServer;

  constructor(failureBody: (failure: InjectedFailure) => unknown) {
    this.http = new FakeHttpServer((request) => this.handle(request), failureBody);
  }

  protected abstract handle(request: FakeRequest): FakeAnswer | Promise<FakeAnswer>;

  get requests() {
    return this.http.requests;
  }

  requestsTo(path: RegExp, method?: string) {
    return this.http.requestsTo(path, method);
  }

  async start(): Promise<this> {
    await this.http.start();
    return this;
  }

  close(): Promise<void> {
    return this.http.close();
  }

  failNext(failure: InjectedFailure): void {
    this.http.failNext(failure);
  }
}

export function bearerOf(request: FakeRequest): string | null {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer (\S+)$/.exec(header) : null;
  return match ? match[1] : null;
}

/** A JSON body, or null when it is not JSON. */
export function jsonBody(request: FakeRequest): Record<string, unknown> | null {
  if (request.text === '') return null;
  try {
    const value: unknown = JSON.parse(request.text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * A provider's quota as the provider enforces it: what was spent in the last `windowSeconds` (a sliding
 * window) may not exceed `perWindow`; a request that would is refused and counted in `refusals`, and
 * spends nothing. The fakes start with the real limits; a test may shorten the window to see several.
 */
export class QuotaWindow {
  refusals = 0;
  private spent: { at: number; cost: number }[] = [];

  constructor(
    public perWindow: number,
    public windowSeconds: number,
  ) {}

  /** Spends `cost` now when the window has room for it; false (a refusal) otherwise. */
  admit(cost: number, now = Date.now()): boolean {
    const since = now - this.windowSeconds * 1000;
    this.spent = this.spent.filter((entry) => entry.at > since);
    const used = this.spent.reduce((sum, entry) => sum + entry.cost, 0);
    if (used + cost > this.perWindow) {
      this.refusals += 1;
      return false;
    }
    this.spent.push({ at: now, cost });
    return true;
  }
}

/** A provider's limit of requests in flight at once (Graph's 4 per mailbox): one more is refused. */
export class ConcurrencyLimit {
  /** How long each admitted request takes before it is answered (0: at once, so requests never overlap). */
  delayMs = 0;
  inFlight = 0;
  /** The most requests in flight at once that were admitted. */
  peak = 0;
  refusals = 0;

  constructor(public limit: number) {}

  /** Admits one more request in flight; false (a refusal) when `limit` are already. */
  enter(): boolean {
    if (this.inFlight >= this.limit) {
      this.refusals += 1;
      return false;
    }
    this.inFlight += 1;
    this.peak = Math.max(this.peak, this.inFlight);
    return true;
  }

  leave(): void {
    this.inFlight -= 1;
  }
}
