import { describe, expect, it, vi } from 'vitest';
import { fakeCapabilities, runNode } from '../testing';
import { httpRequestNode } from './request.node.ts';

function withResponse(status: number, body = '{"ok":true}') {
  return fakeCapabilities({ http: { request: vi.fn(async (input) => ({ status, headers: { 'content-type': 'application/json', 'set-cookie': 's=1' }, body, url: input.url })) } });
}

describe('http.request', () => {
  it('sends method, query, headers and a JSON body through the capability', async () => {
    const capabilities = withResponse(200);
    const result = await runNode(httpRequestNode, {
      params: {
        method: 'POST',
        url: 'https://api.example.com/items?x=1',
        query: [{ name: 'y', value: '2' }],
        headers: [{ name: 'X-Trace', value: 'abc' }],
        body: { type: 'json', json: { a: 1 } },
      },
      capabilities,
    });
    expect(capabilities.http.request).toHaveBeenCalledWith(
      expect.objectContaining({
        method: 'POST',
        url: 'https://api.example.com/items?x=1&y=2',
        headers: { 'x-trace': 'abc', 'content-type': 'application/json' },
        body: '{"a":1}',
        maxResponseBytes: 1_000_000,
        followRedirects: true,
      }),
    );
    expect(result).toMatchObject({ data: { status: 200, body: { ok: true }, headers: { 'content-type': 'application/json' } } });
    expect((result as { data: { headers: object } }).data.headers).not.toHaveProperty('set-cookie');
  });

  it('hands the connection to the capability, never opening a secret itself, and keeps what a test run would send', async () => {
    const wouldSend = { method: 'GET', url: 'https://api.example.com/?key=••••', headers: {} };
    const capabilities = fakeCapabilities({ http: { request: vi.fn(async () => ({ status: 200, headers: {}, body: '', url: wouldSend.url, request: wouldSend })) } });
    const result = await runNode(httpRequestNode, { params: { url: 'https://api.example.com/', credentialId: '5b1d9a52-4f0c-4d55-9d5b-2f7d3f2a9e10' }, capabilities });
    expect(capabilities.http.request).toHaveBeenCalledWith(expect.objectContaining({ url: 'https://api.example.com/', headers: {}, credentialId: '5b1d9a52-4f0c-4d55-9d5b-2f7d3f2a9e10' }));
    expect(result).toMatchObject({ data: { url: wouldSend.url, request: wouldSend } });
  });

  it.each([
    [404, 'http_status', 'permanent'],
    [400, 'http_status', 'permanent'],
    [429, 'http_status', 'transient'],
    [500, 'http_error', 'transient'],
    [502, 'http_error', 'transient'],
  ])('a %s answer fails %s (%s)', async (status, code, kind) => {
    await expect(runNode(httpRequestNode, { params: { url: 'https://api.example.com/' }, capabilities: withResponse(status) })).rejects.toMatchObject({ code, kind });
  });

  it('keeps a body that is not JSON as text, and reads text when asked', async () => {
    expect(await runNode(httpRequestNode, { params: { url: 'https://a.example/' }, capabilities: withResponse(200, 'plain') })).toMatchObject({ data: { body: 'plain' } });
    expect(await runNode(httpRequestNode, { params: { url: 'https://a.example/', responseType: 'text' }, capabilities: withResponse(200, '{"a":1}') })).toMatchObject({
      data: { body: '{"a":1}' },
    });
  });

  it.each([[{ maxResponseBytes: 10_000_001 }], [{ method: 'TRACE' }], [{ headers: [{ name: 'bad header', value: 'x' }] }]])('refuses %j', (extra) => {
    expect(httpRequestNode.params.safeParse({ url: 'https://a.example/', ...extra }).success).toBe(false);
  });

  it('is an external effect', () => {
    expect(httpRequestNode.effect).toBe('external');
  });
});
