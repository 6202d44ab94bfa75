/**
 * One file out of a `multipart/form-data` body, parsed as it streams (busboy) with ceilings on
 * everything: one file part (a second one is 400), a few small fields, bounded part headers, and the
 * file's bytes (`maxBytes`; beyond them 413). The body stream itself is bounded by the caller.
 */
import { Readable } from 'node:stream';
import busboy from 'busboy';
import { AppError, appError, isAppError } from '../../../core/errors/app-error';

export interface UploadedFile {
  /** The name the client gave, as sent (may be empty). */
  filename: string;
  mime: string;
  content: Buffer;
}

const limits = { files: 1, fields: 5, fieldSize: 1024, parts: 6, headerPairs: 20, fieldNameSize: 100 };

const badMultipart = (message: string, reason: string) => appError('request.bad_request', { message, details: { reason } });

export function readSingleFile(body: ReadableStream<Uint8Array>, contentType: string, maxBytes: number): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      // busboy signals its limit on reaching it, not on passing it: one byte more tells a file over the bound.
      parser = busboy({ headers: { 'content-type': contentType }, limits: { ...limits, fileSize: maxBytes + 1 } });
    } catch {
      reject(badMultipart('The body is not multipart/form-data with a boundary.', 'multipart_malformed'));
      return;
    }
    const source = Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>);
    let failure: AppError | null = null;
    let file: UploadedFile | null = null;
    let settled = false;
    // The parser closes when the body is parsed; a file's own stream may still be delivering.
    let parserClosed = false;
    let openFiles = 0;
    const fail = (error: AppError) => {
      failure ??= error;
    };
    const finish = () => {
      if (settled) return;
      settled = true;
      source.unpipe(parser);
      source.destroy();
      if (failure) reject(failure);
      else if (file) resolve(file);
      else reject(badMultipart('The body holds no file.', 'no_file'));
    };

    parser.on('file', (_field, stream, info) => {
      openFiles += 1;
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(new AppError('request.payload_too_large', { message: `The file is larger than ${maxBytes} bytes.`, details: { reason: 'file_too_large', limitBytes: maxBytes } })));
      stream.on('end', () => {
        file = { filename: info.filename ?? '', mime: info.mimeType ?? 'application/octet-stream', content: Buffer.concat(chunks) };
        openFiles -= 1;
        if (parserClosed && openFiles === 0) finish();
      });
    });
    parser.on('filesLimit', () => fail(badMultipart('Send one file per request.', 'too_many_files')));
    parser.on('fieldsLimit', () => fail(badMultipart('Too many form fields.', 'too_many_fields')));
    parser.on('partsLimit', () => fail(badMultipart('Too many parts.', 'too_many_parts')));
    parser.on('error', () => {
      fail(badMultipart('The multipart body is malformed.', 'multipart_malformed'));
      finish();
    });
    parser.on('close', () => {
      parserClosed = true;
      if (openFiles === 0) finish();
    });
    source.on('error', (error: unknown) => {
      fail(isAppError(error) ? error : badMultipart('The request body ended before it was complete.', 'body_incomplete'));
      finish();
    });
    source.pipe(parser);
  });
}
