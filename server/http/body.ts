/** Request body reading with the spec's bound (5 MB): a larger body is 413 before it is parsed. */
import { AppError } from '../core/errors/app-error';

export const maxBodyBytes = 5 * 1024 * 1024;

export async function readBodyWithin(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function tooLarge(limit: number): AppError {
  return new AppError('request.payload_too_large', { details: { reason: 'body_limit', limitBytes: limit } });
}
