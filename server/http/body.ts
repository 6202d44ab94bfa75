/**
 * Reading a request body: bounded on the bytes actually read (never on the declared length alone),
 * JSON only where a route takes JSON.
 *
 * The bound stops the read as soon as it is crossed: the rest of the body is never buffered. The
 * read is cancelled rather than drained; over node:http the stream from node-body.ts then leaves
 * the socket alone, and the bridge closes the connection once the 413 is flushed.
 */
import { AppError } from '../core/errors/app-error';

/** The spec's request body bound, for every route that does not declare its own. */
export const maxBodyBytes = 5 * 1024 * 1024;

export function tooLarge(limit: number): AppError {
  return new AppError('request.payload_too_large', { details: { reason: 'body_limit', limitBytes: limit } });
}

/**
 * A chunk of the body. The stream fails when the client aborts mid-body: that is the client's doing,
 * answered (to nobody, usually) as a 400, not logged as a server error.
 */
async function readChunk(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<ReadableStreamReadResult<Uint8Array>> {
  try {
    return await reader.read();
  } catch {
    throw new AppError('request.bad_request', { message: 'The request body ended before it was complete.', details: { reason: 'body_incomplete' } });
  }
}

/** 413 at once when the request declares more than `limit` bytes (what arrives is counted too). */
export function assertDeclaredLengthWithin(request: Request, limit: number): void {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
}

/** The whole body as bytes, or 413 `request.payload_too_large` once more than `limit` bytes arrived. */
export async function readBytesWithin(request: Request, limit: number): Promise<Buffer> {
  assertDeclaredLengthWithin(request, limit);
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await readChunk(reader);
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

export async function readBodyWithin(request: Request, limit: number): Promise<string> {
  return (await readBytesWithin(request, limit)).toString('utf8');
}

/** The media type of a Content-Type value, lower-cased and without parameters (`charset=...`). */
export function mediaTypeOf(contentType: string | null): string | null {
  if (contentType === null) return null;
  return contentType.split(';', 1)[0].trim().toLowerCase();
}

export function isJsonMediaType(contentType: string | null): boolean {
  return mediaTypeOf(contentType) === 'application/json';
}

/**
 * 415 for a request that declares a body of another type than JSON, even an empty one: an HTML form
 * (`multipart/form-data`, `application/x-www-form-urlencoded`, `text/plain`) is what a cross-site page
 * can make a browser send without asking, and no JSON route takes one.
 */
export function assertJsonOrUntyped(contentType: string | null): void {
  if (contentType !== null && !isJsonMediaType(contentType)) {
    throw new AppError('request.unsupported_media_type', { details: { contentType: mediaTypeOf(contentType)?.slice(0, 100) ?? '' } });
  }
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new AppError('request.bad_request', {
      message: 'The body is not valid JSON.',
      details: { reason: cause instanceof SyntaxError ? cause.message.slice(0, 200) : 'invalid_json' },
    });
  }
}

/**
 * The body as a stream that fails with 413 `request.payload_too_large` once more than `limit` bytes
 * arrived (and with 400 when the client aborts), for routes that parse a large body as it comes
 * (`streamed` plain routes). Cancelling it cancels the read.
 */
export function boundedBodyStream(request: Request, limit: number): ReadableStream<Uint8Array> {
  assertDeclaredLengthWithin(request, limit);
  const reader = request.body?.getReader() ?? null;
  let size = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!reader) return controller.close();
      const { done, value } = await readChunk(reader);
      if (done) return controller.close();
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge(limit);
      }
      controller.enqueue(value);
    },
    async cancel() {
      await reader?.cancel().catch(() => undefined);
    },
  });
}
