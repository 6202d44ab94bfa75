/**
 * The HTTP capability with a connection, against a real loopback server that echoes what it received:
 * every form of the secret is masked in the answer, a simulated run never opens it, the hosts bind.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { maskText } from '../engine/expressions';
import { createHttpCapability } from './http';
import type { HttpCredential } from './http-credential';

let server: http.Server;
let host = '';
const received: { url: string; authorization?: string }[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    received.push({ url: request.url ?? '', authorization: request.headers.authorization });
    response.writeHead(200, { 'content-type': 'text/plain', 'x-seen': request.url ?? '' }).end(`${request.url} ${request.headers.authorization ?? ''}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

function credentialOf(secret: Record<string, string>, extra: Partial<HttpCredential> = {}): HttpCredential {
  return { scope: 'org', kind: secret.kind, sentAs: null, allowedHosts: [host], open: vi.fn(() => secret), bindTo: vi.fn(async () => []), ...extra };
}

function capability(credential: HttpCredential, simulated = false) {
  return createHttpCapability({ simulated, allowHosts: '127.0.0.1', credentials: { load: async () => credential } });
}

const request = (url: string) => ({ method: 'GET', url, headers: {}, maxResponseBytes: 100_000, followRedirects: true, signal: new AbortController().signal, credentialId: 'c' });

describe('secret masked by value in the answer', () => {
  it('a basic secret: neither the base64 header value nor the password comes back', async () => {
    const secret = { kind: 'basic', username: 'robot', password: 'pa ss/wörd+1' };
    const answer = await capability(credentialOf(secret)).request(request(`http://${host}/p?echo=${encodeURIComponent(secret.password)}`));
    const sent = received.at(-1)!;
    expect(sent.authorization).toBe(`Basic ${Buffer.from('robot:pa ss/wörd+1').toString('base64')}`);
    expect(answer.body).toBe(`/p?echo=${maskText} Basic ${maskText}`);
    expect(JSON.stringify(answer)).not.toContain(Buffer.from('robot:pa ss/wörd+1').toString('base64'));
  });

  it('a query secret with characters a URL encodes: every encoding is masked', async () => {
    const secret = { kind: 'query', paramName: 'key', value: 'a b/c+d&é' };
    const answer = await capability(credentialOf(secret)).request(request(`http://${host}/q`));
    expect(new URL(received.at(-1)!.url, 'http://x').searchParams.get('key')).toBe(secret.value);
    expect(answer.url).toBe(`http://${host}/q?key=${maskText}`);
    expect(answer.headers['x-seen']).toBe(`/q?key=${maskText}`);
    expect(answer.body).toBe(`/q?key=${maskText} `);
  });
});

describe('simulated requests', () => {
  it('never open the secret, and report where it would go', async () => {
    const credential = credentialOf({ kind: 'apiKey', headerName: 'X-Api-Key', value: 'k' }, { sentAs: 'x-api-key' });
    const before = received.length;
    const answer = await capability(credential, true).request({ ...request(`http://${host}/s`), headers: { 'x-trace': 't1', authorization: 'Bearer inline' } });
    expect(credential.open).not.toHaveBeenCalled();
    expect(received.length).toBe(before);
    expect(answer.request).toEqual({ method: 'GET', url: `http://${host}/s`, headers: { 'x-trace': 't1', authorization: maskText, 'x-api-key': maskText } });
  });

  it('are refused outside the hosts too, and bind nothing', async () => {
    const credential = credentialOf({ kind: 'bearer', token: 't' }, { scope: 'member', allowedHosts: [] });
    await expect(capability(credential, true).request(request(`http://${host}/s`))).resolves.toMatchObject({ status: 200 });
    expect(credential.bindTo).not.toHaveBeenCalled();
    await expect(capability(credentialOf({ kind: 'bearer', token: 't' }), true).request(request('http://elsewhere.example/'))).rejects.toMatchObject({ code: 'http_credential_host_not_allowed' });
  });
});

it('a request with a connection and a URL that is not http(s) fails http_blocked before opening it', async () => {
  const credential = credentialOf({ kind: 'bearer', token: 't' });
  await expect(capability(credential).request(request('file:///etc/passwd'))).rejects.toMatchObject({ code: 'http_blocked', kind: 'permanent' });
  expect(credential.open).not.toHaveBeenCalled();
});
