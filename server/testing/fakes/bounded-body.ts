/**
 * Reads a fake server's request body whole, refusing past a bound: a test fake must not buffer
 * whatever a runaway client sends. Answers null after replying 413 itself, so the caller just returns.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export async function readBoundedBody(request: IncomingMessage, response: ServerResponse, maxBytes: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      response.statusCode = 413;
      response.end();
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
