/**
 * Raw-socket clients that send a chunked body the way a hostile or naive client does, written byte by
 * byte with node:net (no HTTP client library to frame, buffer or retry anything), for the body-bound
 * tests against the bridge server and the production server.
 */
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface RawAnswer {
  /** Status of the first answer head, or null when none arrived before the connection ended. */
  status: number | null;
  headers: Record<string, string>;
  /** The body, de-chunked when the answer was chunked. */
  body: string;
  /** Bytes of the request body the client had written when the answer began (or when the connection ended). */
  sentBytes: number;
  /** How the connection ended for the client: `close` (clean), or the socket error code (ECONNRESET, EPIPE). */
  ended: string;
}

export interface ChunkedBodyOptions {
  host?: string;
  port: number;
  path: string;
  /** Bytes of body to offer in all (default 24 MB); the last chunk is never sent, so the body never ends. */
  totalBytes?: number;
  /** Size of each chunk (default 64 KB). */
  chunkBytes?: number;
  /**
   * `never-ending-string` (default): chunks of a JSON string that never closes, `{"email":"aaaa…`.
   * `never-ending-extension`: the first chunk's extension never ends, `1000;x="…` (node:http stops
   * reading extensions at 16 KB).
   */
  shape?: 'never-ending-string' | 'never-ending-extension';
  /**
   * `while-sending` (default): read the answer as it comes and stop writing once it began, like a
   * browser. `after-sending`: write everything first and read only then, like simple HTTP clients.
   */
  reads?: 'while-sending' | 'after-sending';
  /** Pause between chunks (default none): a slow client. */
  pauseMs?: number;
  headers?: Record<string, string>;
}

function parseAnswer(raw: Buffer): Pick<RawAnswer, 'status' | 'headers' | 'body'> {
  const text = raw.toString('latin1');
  // A `100 Continue` interim head may come first; the answer is the first final one.
  const heads = [...text.matchAll(/HTTP\/1\.[01] (\d{3})[^\r\n]*\r\n/g)].filter((match) => !match[1].startsWith('1'));
  const head = heads[0];
  if (!head || head.index === undefined) return { status: null, headers: {}, body: '' };
  const end = text.indexOf('\r\n\r\n', head.index);
  const headerLines = text.slice(head.index + head[0].length, end < 0 ? undefined : end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = end < 0 ? '' : text.slice(end + 4);
  if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
    let decoded = '';
    let rest = body;
    for (;;) {
      const lineEnd = rest.indexOf('\r\n');
      if (lineEnd < 0) break;
      const size = Number.parseInt(rest.slice(0, lineEnd), 16);
      if (!Number.isFinite(size) || size === 0) break;
      decoded += rest.slice(lineEnd + 2, lineEnd + 2 + size);
      rest = rest.slice(lineEnd + 2 + size + 2);
    }
    body = decoded;
  }
  return { status: Number(head[1]), headers, body: Buffer.from(body, 'latin1').toString('utf8') };
}

/** POSTs a chunked body that never ends over a raw socket and resolves with what the server answered. */
export function postNeverEndingChunkedBody(options: ChunkedBodyOptions): Promise<RawAnswer> {
  const { host = '127.0.0.1', port, path, totalBytes = 24 * 1024 * 1024, chunkBytes = 64 * 1024 } = options;
  const shape = options.shape ?? 'never-ending-string';
  const reads = options.reads ?? 'while-sending';
  const extraHeaders = Object.entries({ 'content-type': 'application/json', ...options.headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return new Promise((resolve) => {
    const received: Buffer[] = [];
    let sentBytes = 0;
    let sentWhenAnswered: number | null = null;
    let ended = 'close';
    let settled = false;
    const socket = connect({ host, port });
    const settle = () => {
      if (settled) return;
      settled = true;
      resolve({ ...parseAnswer(Buffer.concat(received)), sentBytes: sentWhenAnswered ?? sentBytes, ended });
    };
    const answering = () => reads === 'while-sending' && received.length > 0;
    socket.on('data', (chunk: Buffer) => {
      sentWhenAnswered ??= sentBytes;
      // A `while-sending` client stops at the answer; an `after-sending` one keeps reading anyway.
      received.push(chunk);
    });
    if (reads === 'after-sending') socket.pause();
    socket.on('error', (error: NodeJS.ErrnoException) => {
      ended = error.code ?? 'error';
    });
    socket.on('close', settle);
    const send = async () => {
      socket.write(`POST ${path} HTTP/1.1\r\nhost: ${host}:${port}\r\n${extraHeaders}transfer-encoding: chunked\r\n\r\n`);
      if (shape === 'never-ending-string') {
        const start = Buffer.from('{"email":"');
        socket.write(`${start.length.toString(16)}\r\n`);
        socket.write(start);
        socket.write('\r\n');
      } else {
        socket.write('1000;x="{\\"email\\":\\"');
      }
      const piece = Buffer.alloc(chunkBytes, 'a');
      try {
        while (sentBytes < totalBytes && !answering() && !socket.destroyed) {
          const framed = shape === 'never-ending-string' ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]) : piece;
          sentBytes += piece.length;
          const flushed = socket.write(framed);
          // Yield to the event loop after every chunk, so a `while-sending` client sees the answer.
          if (!flushed) await new Promise<void>((resume) => socket.once('drain', resume).once('close', resume));
          else await sleep(options.pauseMs ?? 0);
        }
      } catch {
        // Writing after the server closed: `ended` says how.
      }
      if (reads === 'after-sending' && !socket.destroyed) socket.resume();
    };
    socket.on('connect', () => void send());
  });
}
