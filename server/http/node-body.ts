/**
 * A node:http request body as a web stream, and the way to end a connection whose body was not read.
 *
 * Why not `Readable.toWeb(req)`: cancelling that stream destroys the request, which destroys the
 * socket with an error before any answer is written; node:http then answers on its own with a bare
 * `400 Bad Request` (no envelope) and closes. A bounded read cancels its stream as soon as the bound is
 * crossed, so the stream here only stops reading (pauses) and leaves the socket to the bridge.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** Pulls from `req` only when the reader asks (backpressure), and pauses for good on cancel. */
export function requestBodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let finished = false;
  const detach = () => {
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onError);
    req.off('aborted', onAborted);
  };
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  function onData(chunk: Buffer) {
    if (finished) return;
    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if ((controller.desiredSize ?? 0) <= 0) req.pause();
  }
  function onEnd() {
    if (finished) return;
    finished = true;
    detach();
    controller.close();
  }
  function onError(error: Error) {
    if (finished) return;
    finished = true;
    detach();
    controller.error(error);
  }
  function onAborted() {
    onError(new Error('the client aborted the request'));
  }
  let attached = false;
  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      pull() {
        if (!attached) {
          attached = true;
          req.on('data', onData);
          req.on('end', onEnd);
          req.on('error', onError);
          req.on('aborted', onAborted);
        }
        req.resume();
      },
      cancel() {
        finished = true;
        detach();
        req.pause();
      },
    },
    // No read-ahead: nothing is taken from the socket before a reader asks for it.
    { highWaterMark: 0 },
  );
}

/**
 * How long a connection whose body was cut short may keep sending after the answer, discarded: until
 * the client has been quiet for `lingerIdleMs`, at most `lingerMaxMs` in all (nginx's lingering close:
 * `lingering_timeout`, `lingering_time`). A fixed short delay is not enough: a client that writes its
 * whole body before reading (most simple HTTP clients do) would still be sending when the socket is
 * destroyed, and the reset discards the answer waiting unread on its side.
 */
export const lingerIdleMs = 2_000;
export const lingerMaxMs = 30_000;

export interface Linger {
  /** The client sent more: wait another `lingerIdleMs` before closing. */
  stillSending(): void;
}

/**
 * Destroys `socket` once its client has stopped sending (quiet for `lingerIdleMs`, or its own end),
 * at the latest after `lingerMaxMs`. The caller has already ended our side after the answer and
 * discards what still arrives, calling `stillSending` for each piece.
 */
export function lingerThenDestroy(socket: Duplex): Linger {
  const destroy = () => socket.destroy();
  const idle = setTimeout(destroy, lingerIdleMs);
  const max = setTimeout(destroy, lingerMaxMs);
  idle.unref();
  max.unref();
  // The client's end: nothing more will come, and our answer and end went before it.
  socket.once('end', destroy);
  socket.once('close', () => {
    clearTimeout(idle);
    clearTimeout(max);
  });
  return { stillSending: () => idle.refresh() };
}

/**
 * Answers with `Connection: close` a request whose body was not read to its end (413, or refused
 * before reading), without resetting the connection under the answer.
 *
 * node:http ends such a socket and destroys it as soon as the answer is flushed. Destroying a socket
 * whose client is still sending makes the kernel reset the connection, and a reset can discard the
 * answer before the client has read it. So the socket's write side is ended after the answer (the
 * client reads it, then sees the end), and what the client still sends is read and thrown away until
 * it stops (see lingerThenDestroy): no byte of it is kept.
 */
export function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('connection', 'close');
  const socket = req.socket;
  // node:http calls destroySoon() on a `Connection: close` socket once the answer is written.
  socket.destroySoon = function lingeringClose() {
    socket.end();
    const linger = lingerThenDestroy(socket);
    req.removeAllListeners('data');
    req.on('data', () => linger.stillSending());
    req.resume();
    socket.resume();
  };
}
