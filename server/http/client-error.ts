/**
 * What node:http refuses before any handler runs (a malformed request line or header, headers over
 * its 16 KB limit, a body that contradicts its Content-Length, a client too slow to send its
 * headers): answered in the envelope with a catalogue code, instead of Node's bare `400 Bad Request`,
 * then the connection is closed (its bytes can no longer be trusted to frame a next request).
 */
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError } from '../core/errors/app-error';
import type { ErrorCode } from '../core/errors/catalogue';

function codeFor(error: NodeJS.ErrnoException): ErrorCode {
  if (error.code === 'HPE_HEADER_OVERFLOW') return 'request.headers_too_large';
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'request.timeout';
  return 'request.bad_request';
}

export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // A reset connection has nobody left to answer, and a socket already sending an answer (a pipelined
  // request before this one) must not get a second head: Node's own default handler checks the same.
  const answering = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (error.code === 'ECONNRESET' || !socket.writable || answering) {
    socket.destroy();
    return;
  }
  const appError = new AppError(codeFor(error));
  const body = JSON.stringify(appError.toBody());
  socket.end(
    `HTTP/1.1 ${appError.status} ${appError.status === 400 ? 'Bad Request' : 'Refused'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

export function answerClientErrorsOf(server: Server): void {
  server.on('clientError', answerClientError);
}
