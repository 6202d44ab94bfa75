/**
 * A minimal HTTP/1.1 keep-alive client over `net.Socket`: one request in flight per connection, the
 * request bytes prebuilt. `node:http`'s client costs several times more CPU per request, and on a
 * 2-core machine the load generator shares the CPU with the server under test, so a lean client
 * keeps the ceiling measurement about the servers rather than about the client.
 *
 * Handles `Content-Length` and `Transfer-Encoding: chunked` bodies and `Connection: close`.
 */
import net from 'node:net';

export interface HttpResult {
  status: number;
  /** Only when asked for (`keepBody`): the decoded body. */
  body?: Buffer;
}

const headerTerminator = Buffer.from('\r\n\r\n');
const lineTerminator = Buffer.from('\r\n');

export function buildGetRequest(host: string, path: string, headers: Record<string, string>): Buffer {
  let text = `GET ${path} HTTP/1.1\r\nHost: ${host}\r\n`;
  for (const [name, value] of Object.entries(headers)) text += `${name}: ${value}\r\n`;
  return Buffer.from(`${text}\r\n`, 'latin1');
}

interface Pending {
  resolve(result: HttpResult): void;
  reject(error: Error): void;
  keepBody: boolean;
}

export class HttpConnection {
  private socket: net.Socket | null = null;
  private connecting: Promise<void> | null = null;
  private buffer: Buffer = Buffer.alloc(0);
  private pending: Pending | null = null;
  private reconnecting = false;

  constructor(
    private readonly port: number,
    private readonly host = '127.0.0.1',
  ) {}

  get busy(): boolean {
    return this.pending !== null || this.reconnecting;
  }

  private connect(): Promise<void> {
    this.connecting ??= new Promise<void>((resolve, reject) => {
      const socket = net.connect({ port: this.port, host: this.host, noDelay: true });
      socket.once('connect', () => {
        this.socket = socket;
        this.connecting = null;
        resolve();
      });
      socket.on('data', (chunk: Buffer) => this.onData(chunk));
      socket.on('error', (error) => {
        if (this.socket !== socket) {
          this.connecting = null;
          reject(error);
        }
        this.fail(error);
      });
      socket.on('close', () => {
        if (this.socket === socket) this.socket = null;
        this.fail(new Error('connection closed by the server'));
      });
    });
    return this.connecting;
  }

  async send(request: Buffer, keepBody = false): Promise<HttpResult> {
    if (this.pending || this.reconnecting) throw new Error('one request at a time per connection');
    if (!this.socket || this.socket.destroyed) {
      // Busy while it reconnects: a caller picking an idle connection in the meantime would otherwise
      // take this one too and replace this request's pending answer, which then never settled.
      this.reconnecting = true;
      try {
        await this.connect();
      } finally {
        this.reconnecting = false;
      }
    }
    return new Promise<HttpResult>((resolve, reject) => {
      this.pending = { resolve, reject, keepBody };
      this.buffer = Buffer.alloc(0);
      this.socket!.write(request);
    });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = null;
  }

  private fail(error: Error): void {
    const pending = this.pending;
    this.pending = null;
    this.buffer = Buffer.alloc(0);
    pending?.reject(error);
  }

  private onData(chunk: Buffer): void {
    if (!this.pending) return; // nothing expected: ignore stray bytes
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const parsed = parseResponse(this.buffer, this.pending.keepBody);
    if (parsed === 'incomplete') return;
    if (parsed instanceof Error) {
      this.socket?.destroy();
      this.fail(parsed);
      return;
    }
    const pending = this.pending;
    this.pending = null;
    this.buffer = Buffer.alloc(0);
    if (parsed.close) this.close();
    pending.resolve({ status: parsed.status, body: parsed.body });
  }
}

interface Parsed {
  status: number;
  close: boolean;
  body?: Buffer;
}

function parseResponse(buffer: Buffer, keepBody: boolean): Parsed | Error | 'incomplete' {
  const headerEnd = buffer.indexOf(headerTerminator);
  if (headerEnd < 0) return 'incomplete';
  const head = buffer.toString('latin1', 0, headerEnd);
  const status = Number.parseInt(head.slice(9, 12), 10);
  if (!head.startsWith('HTTP/1.') || !Number.isInteger(status)) return new Error(`not an HTTP response: ${head.slice(0, 40)}`);
  const lower = head.toLowerCase();
  const close = /\r\nconnection:\s*close/.test(lower);
  const bodyStart = headerEnd + 4;
  const lengthMatch = /\r\ncontent-length:\s*(\d+)/.exec(lower);
  if (lengthMatch) {
    const length = Number(lengthMatch[1]);
    if (buffer.length < bodyStart + length) return 'incomplete';
    return { status, close, body: keepBody ? buffer.subarray(bodyStart, bodyStart + length) : undefined };
  }
  if (/\r\ntransfer-encoding:[^\r]*chunked/.test(lower)) {
    const parts: Buffer[] = [];
    let offset = bodyStart;
    for (;;) {
      const lineEnd = buffer.indexOf(lineTerminator, offset);
      if (lineEnd < 0) return 'incomplete';
      const size = Number.parseInt(buffer.toString('latin1', offset, lineEnd), 16);
      if (!Number.isInteger(size)) return new Error('bad chunk size');
      if (size === 0) {
        // Last chunk, then (no trailers expected) an empty line.
        if (buffer.length < lineEnd + 4) return 'incomplete';
        return { status, close, body: keepBody ? Buffer.concat(parts) : undefined };
      }
      const dataStart = lineEnd + 2;
      if (buffer.length < dataStart + size + 2) return 'incomplete';
      if (keepBody) parts.push(buffer.subarray(dataStart, dataStart + size));
      offset = dataStart + size + 2;
    }
  }
  if (status === 204 || status === 304) return { status, close, body: keepBody ? Buffer.alloc(0) : undefined };
  return new Error('response without Content-Length or chunked encoding (not supported by the bench client)');
}

/** One request on a fresh connection, body kept (for checks and warm-up). */
export async function getOnce(port: number, request: Buffer): Promise<{ status: number; body: string }> {
  const connection = new HttpConnection(port);
  try {
    const result = await connection.send(request, true);
    return { status: result.status, body: result.body?.toString('utf8') ?? '' };
  } finally {
    connection.close();
  }
}
