/**
 * What node:http refuses before any handler runs (a malformed request line or header, headers over
 * its 16 KB limit, chunk extensions over its 16 KB limit, a body that contradicts its Content-Length,
 * a client too slow to send its headers): answered in the envelope with a catalogue code, instead of
 * Node's bare `400 Bad Request`, then the connection is closed (its bytes can no longer be trusted to
 * frame a next request) once the client stops sending, so the answer is not lost in a reset.
 */
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError } from '../core/errors/app-error';
import { lingerThenDestroy, type Linger } from './node-body';

/** node:http's bound on the chunk extensions of one request (HPE_CHUNK_EXTENSIONS_OVERFLOW). */
export const maxChunkExtensionsBytes = 16 * 1024;

function errorFor(error: NodeJS.ErrnoException): AppError {
  if (error.code === 'HPE_HEADER_OVERFLOW') return new AppError('request.headers_too_large');
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return new AppError('request.timeout');
  // Chunk extensions are part of the body on the wire: over node's bound, the body is too large
  // (node itself answers 413 there), with the parser's reason.
  if (error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') {
    return new AppError('request.payload_too_large', { details: { reason: 'chunk_extensions_too_large', limitBytes: maxChunkExtensionsBytes } });
  }
  return new AppError('request.bad_request');
}

const reasonPhrases: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 413: 'Payload Too Large', 431: 'Request Header Fields Too Large' };

/** Sockets answered here and lingering: node:http reports each later byte as another parse error. */
const lingering = new WeakMap<Duplex, Linger>();

export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const linger = lingering.get(socket);
  if (linger) {
    // The parser stays in its error state and drops what arrives: the client is still sending.
    linger.stillSending();
    return;
  }
  // A socket already sending an answer (a pipelined request before this one) must not get a second
  // head: Node's own default handler checks the same.
  const answering = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (!socket.writable || answering) {
    socket.destroy();
    return;
  }
  const appError = errorFor(error);
  const body = JSON.stringify(appError.toBody());
  socket.end(
    `HTTP/1.1 ${appError.status} ${reasonPhrases[appError.status] ?? 'Refused'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
  lingering.set(socket, lingerThenDestroy(socket));
}

export function answerClientErrorsOf(server: Server): void {
  server.on('clientError', answerClientError);
}
