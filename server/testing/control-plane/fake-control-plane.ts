/**
 * A fake operator's control plane for the tests: a real HTTP server on a free port of 127.0.0.1 speaking the
 * support protocol v1 (docs/support-protocol.md) with the same schemas and signature the instance uses
 * (server/domains/support/sync/protocol.ts, signature.ts), an in-memory store, the operator's actions (reply, set
 * a status or an assignee, set the branding) and fault injection: down (connections reset), 5xx, slow answers,
 * garbage bodies, duplicated and reordered change pages, and lost acknowledgements (the message is recorded, the
 * answer never arrives).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import {
  PROTOCOL_VERSION,
  protocolHeaders,
  putMessageBody,
  putThreadBody,
  wireLimits,
} from '../../domains/support/sync/protocol';
import { verify } from '../../domains/support/sync/signature';
import {
  SUPPORT_CONVERSATION_STATUSES,
  SUPPORT_REQUEST_STATUSES,
  type OperatorBranding,
  type SupportThreadKind,
  type SupportThreadStatus,
} from '../../domains/support/sync/store';

export type FakeMessage = {
  id: string;
  direction: 'member' | 'team';
  authorName: string;
  authorMemberId: string | null;
  body: string;
  createdAt: string;
  /** How many PUTs carried this id (1 = delivered once; more = retries the protocol absorbed). */
  puts: number;
};

export type FakeThread = {
  id: string;
  kind: SupportThreadKind;
  subject: string;
  status: SupportThreadStatus;
  assigneeName: string | null;
  createdAt: string;
  messages: FakeMessage[];
};

type StoredChange = Record<string, unknown> & { seq: number; type: string };

export type Faults = {
  /** Every connection is reset before an answer (the operator is unreachable). */
  down: boolean;
  /** The next N requests answer 503. */
  serverErrors: number;
  /** Every answer waits this long (a PUT is recorded first, then waits). */
  slowMs: number;
  /** The next N answers are 200 with a body that is not the protocol's. */
  garbage: number;
  /** Change pages carry every change twice, and the last change of the previous page again. */
  duplicateChanges: boolean;
  /** Change pages list their changes newest first. */
  reverseChanges: boolean;
  /** The next N PUTs are recorded, then the connection is cut before the answer. */
  loseAcks: number;
  /** Answers to the next N requests declare another protocol version. */
  wrongVersion: number;
  /** The next N answers are 200 with a 2 MB body (past the instance's bound). */
  oversized: number;
};

const noFaults = (): Faults => ({ down: false, serverErrors: 0, slowMs: 0, garbage: 0, duplicateChanges: false, reverseChanges: false, loseAcks: 0, wrongVersion: 0, oversized: 0 });

export type RequestRecord = { method: string; path: string; status: number | 'reset' };

export class FakeControlPlane {
  readonly threads = new Map<string, FakeThread>();
  readonly requests: RequestRecord[] = [];
  /** Every request's head and body as received, for tests that look for what must never travel (the secret). */
  readonly rawRequests: string[] = [];
  faults: Faults = noFaults();
  branding: OperatorBranding | null = null;
  /** Seconds of the operator's clock (tests skew it). */
  nowSeconds: () => number = () => Math.floor(Date.now() / 1000);

  private readonly changeLog: StoredChange[] = [];
  private readonly nonces = new Map<string, number>();
  private server: http.Server | null = null;
  private readonly sockets = new Set<import('node:net').Socket>();
  private baseUrl = '';

  constructor(
    readonly instanceId: string,
    private readonly secret: string,
  ) {}

  get url(): string {
    return this.baseUrl;
  }

  /** Listens on 127.0.0.1: a free port by default, a fixed one for a process others must find (the e2e suite). */
  async start(port = 0): Promise<this> {
    const server = http.createServer((request, response) => {
      this.handle(request, response).catch(() => {
        if (!response.headersSent) this.answer(response, 500, { error: { code: 'internal', message: 'fake control plane failure' } });
      });
    });
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    this.server = server;
    this.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }

  clearFaults(): void {
    this.faults = noFaults();
  }

  // --- the operator's actions -------------------------------------------------------------------------------

  reply(threadId: string, reply: { authorName: string; body: string }): string {
    const thread = this.mustThread(threadId);
    const id = `op-msg-${randomUUID()}`;
    const createdAt = new Date().toISOString();
    thread.messages.push({ id, direction: 'team', authorName: reply.authorName, authorMemberId: null, body: reply.body, createdAt, puts: 0 });
    this.record({ type: 'team_message', threadId, messageId: id, authorName: reply.authorName, body: reply.body, createdAt });
    return id;
  }

  setStatus(threadId: string, status: SupportThreadStatus): void {
    const thread = this.mustThread(threadId);
    const allowed: readonly string[] = thread.kind === 'request' ? SUPPORT_REQUEST_STATUSES : SUPPORT_CONVERSATION_STATUSES;
    if (!allowed.includes(status)) throw new Error(`status ${status} is not one of a ${thread.kind}`);
    thread.status = status;
    this.record({ type: 'status', threadId, status, at: new Date().toISOString() });
  }

  setAssignee(threadId: string, assigneeName: string | null): void {
    this.mustThread(threadId).assigneeName = assigneeName;
    this.record({ type: 'assignee', threadId, assigneeName, at: new Date().toISOString() });
  }

  setBranding(branding: OperatorBranding | null): void {
    this.branding = branding;
  }

  /** Every change recorded so far, in order (what the instance should end up having applied). */
  get changes(): readonly StoredChange[] {
    return this.changeLog;
  }

  private mustThread(threadId: string): FakeThread {
    const thread = this.threads.get(threadId);
    if (!thread) throw new Error(`no thread ${threadId} at the fake control plane`);
    return thread;
  }

  private record(change: Record<string, unknown> & { type: string }): void {
    this.changeLog.push({ ...change, seq: this.changeLog.length + 1 });
  }

  // --- the wire ---------------------------------------------------------------------------------------------

  private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const method = request.method ?? 'GET';
    const pathAndQuery = request.url ?? '/';
    const url = new URL(pathAndQuery, 'http://fake');
    const body = await readBody(request);
    this.rawRequests.push(`${method} ${pathAndQuery}\n${JSON.stringify(request.headers)}\n${body}`);
    if (this.faults.down) {
      this.requests.push({ method, path: url.pathname, status: 'reset' });
      request.socket.destroy();
      return;
    }
    const denied = this.authenticate(request, method, pathAndQuery, body);
    if (denied) return this.finish(request, response, method, url.pathname, denied.status, denied.body);
    if (this.faults.serverErrors > 0) {
      this.faults.serverErrors -= 1;
      return this.finish(request, response, method, url.pathname, 503, { error: { code: 'unavailable', message: 'try later' } });
    }

    const parts = url.pathname.split('/').filter(Boolean); // v1 instances <id> ...
    if (parts[0] !== 'v1' || parts[1] !== 'instances' || parts[2] !== this.instanceId) {
      return this.finish(request, response, method, url.pathname, 404, { error: { code: 'not_found', message: 'no such route' } });
    }
    const rest = parts.slice(3);
    if (method === 'PUT' && rest.length === 2 && rest[0] === 'threads') return this.putThread(request, response, url.pathname, rest[1], body);
    if (method === 'PUT' && rest.length === 4 && rest[0] === 'threads' && rest[2] === 'messages') {
      return this.putMessage(request, response, url.pathname, rest[1], rest[3], body);
    }
    if (method === 'GET' && rest.length === 1 && rest[0] === 'changes') return this.getChanges(request, response, url);
    if (method === 'GET' && rest.length === 1 && rest[0] === 'branding') {
      return this.finish(request, response, method, url.pathname, 200, { branding: this.branding });
    }
    return this.finish(request, response, method, url.pathname, 404, { error: { code: 'not_found', message: 'no such route' } });
  }

  private authenticate(request: http.IncomingMessage, method: string, pathAndQuery: string, body: string): { status: number; body: unknown } | null {
    const header = (name: string) => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : '';
    };
    if (header(protocolHeaders.version) !== PROTOCOL_VERSION) return { status: 400, body: { error: { code: 'unsupported_version', message: 'version 1 only' } } };
    if (header(protocolHeaders.instance) !== this.instanceId) return { status: 401, body: { error: { code: 'unknown_instance', message: 'unknown instance' } } };
    const timestamp = Number(header(protocolHeaders.timestamp));
    const nonce = header(protocolHeaders.nonce);
    if (!/^[0-9a-f]{16,64}$/.test(nonce)) return { status: 401, body: { error: { code: 'bad_signature', message: 'bad nonce' } } };
    const now = this.nowSeconds();
    const result = verify(this.secret, { method, pathAndQuery, timestamp, nonce, body }, header(protocolHeaders.signature), now);
    if (!result.ok) return { status: 401, body: { error: { code: result.code, message: 'refused' } } };
    for (const [seen, at] of this.nonces) if (now - at > 2 * 300) this.nonces.delete(seen);
    if (this.nonces.has(nonce)) return { status: 401, body: { error: { code: 'replayed', message: 'nonce already used' } } };
    this.nonces.set(nonce, timestamp);
    return null;
  }

  private async putThread(request: http.IncomingMessage, response: http.ServerResponse, path: string, threadId: string, body: string): Promise<void> {
    const parsed = putThreadBody.safeParse(parseJson(body));
    if (!isUuid(threadId) || !parsed.success) return this.finish(request, response, 'PUT', path, 400, { error: { code: 'bad_request', message: 'invalid thread' } });
    const input = parsed.data;
    let thread = this.threads.get(threadId);
    const duplicate = thread !== undefined;
    if (!thread) {
      thread = {
        id: threadId,
        kind: input.kind,
        subject: input.subject,
        status: input.kind === 'request' ? 'received' : 'open',
        assigneeName: null,
        createdAt: input.createdAt,
        messages: [],
      };
      this.threads.set(threadId, thread);
      thread.messages.push({ id: input.firstMessage.id, direction: 'member', authorName: input.author.name, authorMemberId: input.author.memberId, body: input.firstMessage.body, createdAt: input.firstMessage.createdAt, puts: 1 });
      this.record({ type: 'ack', threadId, messageId: input.firstMessage.id, at: new Date().toISOString() });
    } else {
      const first = thread.messages.find((message) => message.id === input.firstMessage.id);
      if (first) first.puts += 1;
    }
    const receipt = { threadId, messageId: input.firstMessage.id, receivedAt: new Date().toISOString(), duplicate };
    return this.finish(request, response, 'PUT', path, duplicate ? 200 : 201, receipt, true);
  }

  private async putMessage(request: http.IncomingMessage, response: http.ServerResponse, path: string, threadId: string, messageId: string, body: string): Promise<void> {
    const parsed = putMessageBody.safeParse(parseJson(body));
    if (!isUuid(threadId) || !isUuid(messageId) || !parsed.success) {
      return this.finish(request, response, 'PUT', path, 400, { error: { code: 'bad_request', message: 'invalid message' } });
    }
    const thread = this.threads.get(threadId);
    if (!thread) return this.finish(request, response, 'PUT', path, 404, { error: { code: 'thread_not_found', message: 'deliver the thread first' } });
    const existing = thread.messages.find((message) => message.id === messageId);
    if (existing) existing.puts += 1;
    else {
      const input = parsed.data;
      thread.messages.push({ id: messageId, direction: 'member', authorName: input.author.name, authorMemberId: input.author.memberId, body: input.body, createdAt: input.createdAt, puts: 1 });
      this.record({ type: 'ack', threadId, messageId, at: new Date().toISOString() });
    }
    const receipt = { threadId, messageId, receivedAt: new Date().toISOString(), duplicate: existing !== undefined };
    return this.finish(request, response, 'PUT', path, existing ? 200 : 201, receipt, true);
  }

  private async getChanges(request: http.IncomingMessage, response: http.ServerResponse, url: URL): Promise<void> {
    const cursorText = url.searchParams.get('cursor');
    const limitText = url.searchParams.get('limit') ?? String(wireLimits.changesPerPage);
    const limit = Number(limitText);
    const after = cursorText === null ? 0 : /^c\d{1,15}$/.test(cursorText) ? Number(cursorText.slice(1)) : NaN;
    if (!Number.isSafeInteger(after) || !Number.isInteger(limit) || limit < 1 || limit > wireLimits.changesPerPage) {
      return this.finish(request, response, 'GET', url.pathname, 400, { error: { code: 'bad_cursor', message: 'bad cursor or limit' } });
    }
    const pending = this.changeLog.filter((change) => change.seq > after);
    let page: StoredChange[] = pending.slice(0, limit);
    const last = page.length > 0 ? page[page.length - 1].seq : after;
    if (this.faults.duplicateChanges) {
      const previous = this.changeLog.find((change) => change.seq === after);
      page = [...(previous ? [previous] : []), ...page.flatMap((change) => [change, change])];
    }
    if (this.faults.reverseChanges) page = [...page].reverse();
    return this.finish(request, response, 'GET', url.pathname, 200, { changes: page, nextCursor: `c${last}`, hasMore: pending.length > limit });
  }

  /** Applies the answer faults, then answers (a PUT was recorded before: its faults are the answer's). */
  private async finish(request: http.IncomingMessage, response: http.ServerResponse, method: string, path: string, status: number, body: unknown, isPut = false): Promise<void> {
    if (this.faults.slowMs > 0) await new Promise((resolve) => setTimeout(resolve, this.faults.slowMs));
    if (isPut && this.faults.loseAcks > 0) {
      this.faults.loseAcks -= 1;
      this.requests.push({ method, path, status: 'reset' });
      request.socket.destroy();
      return;
    }
    if (this.faults.garbage > 0 && status < 400) {
      this.faults.garbage -= 1;
      this.requests.push({ method, path, status: 200 });
      response.writeHead(200, { 'content-type': 'application/json', [protocolHeaders.version]: PROTOCOL_VERSION });
      response.end('{"changes": [ {"type": "status", "seq": "not a number"');
      return;
    }
    if (this.faults.oversized > 0 && status < 400) {
      this.faults.oversized -= 1;
      this.requests.push({ method, path, status: 200 });
      response.writeHead(200, { 'content-type': 'application/json', [protocolHeaders.version]: PROTOCOL_VERSION });
      response.end(`{"pad": "${'x'.repeat(2 * 1_048_576)}"}`);
      return;
    }
    this.requests.push({ method, path, status });
    let version = PROTOCOL_VERSION;
    if (this.faults.wrongVersion > 0) {
      this.faults.wrongVersion -= 1;
      version = '2';
    }
    this.answer(response, status, body, version);
  }

  private answer(response: http.ServerResponse, status: number, body: unknown, version = PROTOCOL_VERSION): void {
    response.writeHead(status, { 'content-type': 'application/json', [protocolHeaders.version]: version });
    response.end(JSON.stringify(body));
  }
}

async function readBody(request: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > 1_048_576) break;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isUuid(text: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);
}
