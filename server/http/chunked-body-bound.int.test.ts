/**
 * Issue 18 item 7: a body above the bound answers 413 `request.payload_too_large` (Limits, Errors 2:
 * "`details.reason` can hold a parser reason"), never 400, whatever the chunked framing carries it,
 * and the answer reaches the client. Every request is written byte by byte over a raw socket
 * (server/testing/raw-chunked.ts) to a real node:http server mounting the API as the web server does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBridgeServer, type BridgeServer } from '../testing/bridge-server';
import { createMember, type TestMember } from '../testing/factories';
import { postNeverEndingChunkedBody, type RawAnswer } from '../testing/raw-chunked';
import { useTestDatabase } from '../testing/test-database';
import { handleApiRequest } from './api-handler';

await useTestDatabase();

const MB = 1024 * 1024;
let server: BridgeServer;
let member: TestMember;

beforeAll(async () => {
  member = await createMember();
  server = await startBridgeServer(handleApiRequest);
});

afterAll(() => server.close());

/** The catalogue envelope of an answer, REST or tRPC shaped. */
function envelopeOf(answer: RawAnswer): { code: string; details: Record<string, unknown> } {
  const body = JSON.parse(answer.body) as { error: { code?: string; details?: Record<string, unknown>; data?: { appError: { code: string; details: Record<string, unknown> } } } };
  return body.error.data?.appError ?? { code: body.error.code!, details: body.error.details ?? {} };
}

const routes = [
  { name: 'REST sign-in', path: '/api/v1/auth/login', headers: () => ({}) },
  { name: 'REST route of a member', path: '/api/v1/workflows', headers: () => ({ cookie: member.cookie }) },
  { name: 'tRPC', path: '/api/trpc/auth.login', headers: () => ({}) },
];

describe('a chunked body above the bound answers 413 request.payload_too_large over a raw socket', () => {
  it.each(routes)('$name: 24 MB of a JSON string that never ends', async ({ path, headers }) => {
    const answer = await postNeverEndingChunkedBody({ port: server.port, path, headers: headers() });
    expect(answer.status).toBe(413);
    expect(envelopeOf(answer)).toMatchObject({ code: 'request.payload_too_large', details: { reason: 'body_limit', limitBytes: 5 * MB } });
    expect(answer.headers.connection).toBe('close');
  });

  it.each(routes)('$name: a chunk extension that never ends (node:http stops at 16 KB) is 413 with the parser’s reason, not 400', async ({ path, headers }) => {
    const answer = await postNeverEndingChunkedBody({ port: server.port, path, headers: headers(), shape: 'never-ending-extension' });
    expect(answer.status).toBe(413);
    expect(envelopeOf(answer)).toMatchObject({ code: 'request.payload_too_large', details: { reason: 'chunk_extensions_too_large' } });
    expect(answer.headers.connection).toBe('close');
  });
});

describe('the 413 reaches a client that reads only once it has sent everything', () => {
  // Simple HTTP clients write the whole body before reading. This one takes several seconds to send
  // its 24 MB (a slow link): the server must keep taking (and discarding) the bytes while they come,
  // or its close resets the connection and the answer waiting unread in the client is lost.
  it.each(routes)('$name: 24 MB sent slowly, then the answer is read', async ({ path, headers }) => {
    const answer = await postNeverEndingChunkedBody({ port: server.port, path, headers: headers(), reads: 'after-sending', chunkBytes: 256 * 1024, pauseMs: 40 });
    expect(answer.status).toBe(413);
    expect(envelopeOf(answer).code).toBe('request.payload_too_large');
  });

  it('a chunk extension that never ends, sent slowly, then the answer is read', async () => {
    const answer = await postNeverEndingChunkedBody({ port: server.port, path: '/api/v1/auth/login', shape: 'never-ending-extension', reads: 'after-sending', chunkBytes: 256 * 1024, pauseMs: 40 });
    expect(answer.status).toBe(413);
    expect(envelopeOf(answer).code).toBe('request.payload_too_large');
  });
});
