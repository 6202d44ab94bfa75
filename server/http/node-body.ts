/**
 * A node:http request body as a web stream, and the way to end a connection whose body was not read.
 *
 * Why not `Readable.toWeb(req)`: cancelling that stream destroys the request, which destroys the
 * socket with an error before any answer is written; node:http then answers on its own with a bare
 * `400 Bad Request` (no envelope) and closes. A bounded read cancels its stream as soon as the bound is
 * crossed, so the stream here only stops reading (pauses) and leaves the socket to the bridge.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

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

/** How long a connection whose body was cut short may keep sending after the answer, discarded. */
export const lingerMs = 2_000;

/**
 * Answers with `Connection: close` a request whose body was not read to its end (413, or refused
 * before reading), without resetting the connection under the answer.
 *
 * node:http ends such a socket and destroys it as soon as the answer is flushed. Destroying a socket
 * whose client is still sending makes the kernel reset the connection, and a reset can discard the
 * answer before the client has read it. So the socket's write side is ended after the answer (the
 * client reads it, then sees the end), and what the client still sends is read and thrown away until
 * it hangs up or `lingerMs` pass (then the socket is destroyed): no byte of it is kept.
 */
export function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('connection', 'close');
  const socket = req.socket;
  // node:http calls destroySoon() on a `Connection: close` socket once the answer is written.
  socket.destroySoon = function lingeringClose() {
    socket.end();
    req.removeAllListeners('data');
    req.on('data', () => undefined);
    req.resume();
    socket.resume();
    const timer = setTimeout(() => socket.destroy(), lingerMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };
}
