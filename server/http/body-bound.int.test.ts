/**
 * hardening 1: the body bound holds on every transport, counted on the bytes actually read, and the
 * 413 arrives every time, in the envelope, over a real socket to a real node:http server.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientIpHeader } from '../core/http/client-headers';
import { createMember, type TestMember } from '../testing/factories';
import { startBridgeServer, type BridgeServer } from '../testing/bridge-server';
import { useTestDatabase } from '../testing/test-database';
import { handleRestRequest } from './rest-handler';
import { handleApiRequest } from './api-handler';
import { handleTrpcRequest, maxBatchCalls } from './trpc-handler';

await useTestDatabase();

const MB = 1024 * 1024;
let server: BridgeServer;
let port: number;
let member: TestMember;

beforeAll(async () => {
  member = await createMember();
  server = await startBridgeServer(handleApiRequest);
  port = server.port;
});

afterAll(() => server.close());

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  sentBytes: number;
}

/**
 * POSTs `totalBytes` of JSON-looking data with `Transfer-Encoding: chunked` (no Content-Length),
 * writing as fast as the socket takes it, and stops writing once the answer has arrived.
 */
function postChunked(path: string, totalBytes: number, contentType = 'application/json'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    let sentBytes = 0;
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': contentType } }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), sentBytes }));
      res.on('error', reject);
    });
    // Writes after the answer may fail (the server closed its side): that is expected, not a failure.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const chunk = Buffer.from(`{"email":"${'a'.repeat(64 * 1024 - 12)}`.slice(0, 64 * 1024));
    const pump = () => {
      while (!answered && sentBytes < totalBytes) {
        sentBytes += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end();
    };
    pump();
  });
}

describe('hardening 1: every transport bounds the body on the bytes read and answers 413 in the envelope', () => {
  it('REST: a 24 MB chunked body gets 413 request.payload_too_large every time, then the connection closes', async () => {
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const answer = await postChunked('/api/v1/auth/login', 24 * MB);
      expect(answer.status, `attempt ${attempt}`).toBe(413);
      expect(JSON.parse(answer.body).error).toMatchObject({ code: 'request.payload_too_large', details: { limitBytes: 5 * MB } });
      expect(answer.headers.connection).toBe('close');
    }
  });

  it('tRPC: a 41 MB chunked body to auth.login gets 413 in tRPC’s shape with the envelope, every time', async () => {
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const answer = await postChunked('/api/trpc/auth.login', 41 * MB);
      expect(answer.status, `attempt ${attempt}`).toBe(413);
      const error = JSON.parse(answer.body).error;
      expect(error.data.httpStatus).toBe(413);
      expect(error.data.appError).toMatchObject({ code: 'request.payload_too_large', details: { limitBytes: 5 * MB } });
    }
  });

  it('fetch with a streamed body also gets the 413 every time', async () => {
    for (let attempt = 0; attempt < 4; attempt += 1) {
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= 24 * MB) return controller.close();
          sent += 256 * 1024;
          controller.enqueue(new Uint8Array(256 * 1024).fill(97));
        },
      });
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit);
      expect(response.status, `attempt ${attempt}`).toBe(413);
      expect((await response.json()).error.code).toBe('request.payload_too_large');
    }
  });

  it('keeps the connection alive after a body that was read to its end', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: member.email, password: 'wrong-password' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('connection')).not.toBe('close');
  });
});

/** A streamed request body that counts how much of it was ever pulled. */
function countedBody(totalBytes: number) {
  const pulled = { bytes: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.bytes >= totalBytes) return controller.close();
      pulled.bytes += 64 * 1024;
      controller.enqueue(new Uint8Array(64 * 1024).fill(32));
    },
  });
  return { stream, pulled };
}

function streamedRequest(url: string, body: ReadableStream<Uint8Array>, contentType = 'application/json'): Request {
  return new Request(url, {
    method: 'POST',
    headers: { 'content-type': contentType, [clientIpHeader]: '127.0.0.1' },
    body,
    duplex: 'half',
  } as RequestInit);
}

describe('hardening 1: the rest of an oversized body is never read', () => {
  it.each([
    ['REST', 'http://localhost/api/v1/auth/login', handleRestRequest],
    ['tRPC', 'http://localhost/api/trpc/auth.login', handleTrpcRequest],
  ] as const)('%s stops reading just past 5 MB of a 41 MB body', async (_name, url, handle) => {
    const { stream, pulled } = countedBody(41 * MB);
    const response = await handle(streamedRequest(url, stream));
    expect(response.status).toBe(413);
    expect(pulled.bytes).toBeLessThanOrEqual(5 * MB + 2 * 64 * 1024);
  });
});

function trpcPost(path: string, body: BodyInit | null, headers: Record<string, string>) {
  return handleTrpcRequest(
    new Request(`http://localhost/api/trpc/${path}`, { method: 'POST', headers: { [clientIpHeader]: '127.0.0.1', ...headers }, body }),
  );
}

describe('hardening 1: tRPC batches are capped and bodies are JSON only', () => {
  it(`answers a batch of more than ${maxBatchCalls} calls 400 with the reason, and serves one of ${maxBatchCalls}`, async () => {
    const batch = (size: number) =>
      handleTrpcRequest(
        new Request(`http://localhost/api/trpc/${Array(size).fill('instance.branding').join(',')}?batch=1&input={}`, {
          headers: { [clientIpHeader]: '127.0.0.1' },
        }),
      );
    const over = await batch(maxBatchCalls + 1);
    expect(over.status).toBe(400);
    const body = await over.json();
    const errors = Array.isArray(body) ? body.map((item: { error: unknown }) => item.error) : [body.error];
    for (const error of errors as { data: { httpStatus: number; appError: { code: string; details: unknown } } }[]) {
      expect(error.data.httpStatus).toBe(400);
      expect(error.data.appError).toMatchObject({ code: 'request.bad_request', details: { reason: 'batch_too_large', maxCalls: maxBatchCalls } });
    }
    const within = await batch(maxBatchCalls);
    expect(within.status).toBe(200);
    expect(await within.json()).toHaveLength(maxBatchCalls);
  });

  it('refuses a batch of hundreds of calls in one request', async () => {
    const paths = Array(300).fill('auth.login').join(',');
    const input = JSON.stringify(Object.fromEntries(Array.from({ length: 300 }, (_, i) => [i, { email: member.email, password: 'x' }])));
    const response = await trpcPost(`${paths}?batch=1`, input, { 'content-type': 'application/json' });
    expect(response.status).toBe(400);
  });

  it.each([
    ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="0"\r\n\r\n{}\r\n--x--\r\n'],
    ['multipart/form-data; boundary=x', ''],
    ['application/x-www-form-urlencoded', 'email=a'],
    ['text/plain', '{"email":"a","password":"b"}'],
    ['text/plain', ''],
  ])('answers a %s body 415 request.unsupported_media_type (body %j)', async (contentType, body) => {
    const response = await trpcPost('auth.login', body, { 'content-type': contentType });
    expect(response.status).toBe(415);
    expect((await response.json()).error.data.appError.code).toBe('request.unsupported_media_type');
  });

  it('still serves a JSON mutation', async () => {
    const response = await trpcPost('auth.login', JSON.stringify({ email: member.email, password: 'wrong-password' }), {
      'content-type': 'application/json; charset=utf-8',
    });
    expect(response.status).toBe(401);
  });
});

describe('hardening 1: REST refuses a non-JSON content type even with an empty body', () => {
  it.each(['multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'text/plain'])('%s → 415', async (contentType) => {
    const response = await handleRestRequest(
      new Request('http://localhost/api/v1/auth/logout', {
        method: 'POST',
        headers: { 'content-type': contentType, cookie: member.cookie, [clientIpHeader]: '127.0.0.1' },
      }),
    );
    expect(response.status).toBe(415);
    expect((await response.json()).error.code).toBe('request.unsupported_media_type');
  });
});
