/**
 * The fuzz's few requests over a real socket, for what a fetch Request cannot carry: chunked bodies
 * beyond the bound, bytes that are not UTF-8, a Content-Length that does not match the body, a body
 * abandoned halfway, pipelining. The server is node:http with the application's fetch handler mounted
 * by server/http/node-bridge.ts (the web server's own bridge), without Next.js.
 */
import net from 'node:net';
import { startBridgeServer, type BridgeServer } from '../bridge-server';
import type { Dispatcher } from './dispatch';

export type RawServer = Pick<BridgeServer, 'port' | 'close'>;

/** The web server's own mounting (client origin stamped, the bridge, client errors answered). */
export function startRawServer(dispatch: Dispatcher): Promise<RawServer> {
  return startBridgeServer(dispatch);
}

export interface RawResponse {
  status: number;
  headers: Map<string, string>;
  body: Buffer;
}

export interface RawExchange {
  /** Responses parsed from the bytes received, in order (pipelining gives several). */
  responses: RawResponse[];
  /** How the connection ended: closed by the server, reset, or still open when we stopped waiting. */
  ending: 'closed' | 'reset' | 'timeout' | 'complete';
  /** Bytes of the request actually written before the server answered or closed. */
  written: number;
}

/** Parses complete HTTP/1.1 responses out of `data` (Content-Length, chunked, or to the close). */
export function parseResponses(data: Buffer, closed: boolean): RawResponse[] {
  const out: RawResponse[] = [];
  let offset = 0;
  while (offset < data.length) {
    const headEnd = data.indexOf('\r\n\r\n', offset);
    if (headEnd < 0) break;
    const [statusLine, ...headerLines] = data.subarray(offset, headEnd).toString('latin1').split('\r\n');
    const status = Number(statusLine.split(' ')[1]);
    const headers = new Map<string, string>();
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    let cursor = headEnd + 4;
    let body: Buffer;
    if (status === 100) {
      offset = cursor;
      continue;
    }
    if (headers.get('transfer-encoding')?.toLowerCase().includes('chunked')) {
      const parts: Buffer[] = [];
      let complete = false;
      for (;;) {
        const lineEnd = data.indexOf('\r\n', cursor);
        if (lineEnd < 0) break;
        const size = parseInt(data.subarray(cursor, lineEnd).toString('latin1'), 16);
        if (!Number.isFinite(size)) break;
        if (size === 0) {
          const trailerEnd = data.indexOf('\r\n\r\n', lineEnd);
          cursor = trailerEnd < 0 ? data.length : trailerEnd + 4;
          complete = trailerEnd >= 0 || closed;
          break;
        }
        if (lineEnd + 2 + size > data.length) break;
        parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
        cursor = lineEnd + 2 + size + 2;
      }
      if (!complete) break;
      body = Buffer.concat(parts);
    } else if (headers.has('content-length')) {
      const length = Number(headers.get('content-length'));
      if (cursor + length > data.length) break;
      body = data.subarray(cursor, cursor + length);
      cursor += length;
    } else if (closed) {
      body = data.subarray(cursor);
      cursor = data.length;
    } else {
      body = Buffer.alloc(0);
    }
    out.push({ status, headers, body });
    offset = cursor;
  }
  return out;
}

/**
 * Writes `pieces` to a new connection one after the other (stopping as soon as the server answers or
 * closes), optionally half-closes or abandons the connection, and collects what comes back until
 * `expectResponses` responses are complete, the server closes, or `timeoutMs` passes.
 */
export async function rawExchange(
  port: number,
  pieces: Iterable<Buffer>,
  options: { expectResponses?: number; timeoutMs?: number; end?: 'half-close' | 'destroy' | 'keep' } = {},
): Promise<RawExchange> {
  const expected = options.expectResponses ?? 1;
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const received: Buffer[] = [];
  let ending: RawExchange['ending'] | null = null;
  let written = 0;
  const done = new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      ending ??= 'timeout';
      resolve();
    }, options.timeoutMs ?? 5000);
    const finish = (how: RawExchange['ending']) => {
      ending ??= how;
      clearTimeout(timer);
      resolve();
    };
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      if (parseResponses(Buffer.concat(received), false).length >= expected) finish('complete');
    });
    socket.on('error', () => finish('reset'));
    socket.on('close', () => finish('closed'));
  });
  for (const piece of pieces) {
    if (ending || received.length) break;
    const ok = socket.write(piece);
    written += piece.length;
    if (!ok) await Promise.race([new Promise((resolve) => socket.once('drain', resolve)), done]);
  }
  if (options.end === 'half-close') socket.end();
  if (options.end === 'destroy') {
    socket.destroy();
    return { responses: [], ending: 'closed', written };
  }
  await done;
  socket.destroy();
  return { responses: parseResponses(Buffer.concat(received), ending === 'closed' || ending === 'reset'), ending: ending ?? 'timeout', written };
}

export function* chunkedBody(totalBytes: number, chunkBytes: number, prefix = '{"email":"a@b.c","password":"'): Generator<Buffer> {
  const frame = (payload: Buffer) => Buffer.concat([Buffer.from(`${payload.length.toString(16)}\r\n`), payload, Buffer.from('\r\n')]);
  yield frame(Buffer.from(prefix));
  const filler = Buffer.alloc(chunkBytes, 'a');
  for (let sent = prefix.length; sent < totalBytes; sent += chunkBytes) yield frame(filler);
  yield frame(Buffer.from('"}'));
  yield Buffer.from('0\r\n\r\n');
}

export function head(method: string, path: string, headers: Record<string, string | number>): Buffer {
  const lines = [`${method} ${path} HTTP/1.1`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`), '', ''];
  return Buffer.from(lines.join('\r\n'), 'latin1');
}
