/**
 * The web server without pages (WEB_API_ONLY=1, server/http/page-handler.ts): everything that is ours
 * is served as in a full web process, and a page path answers the envelope's 404 instead of Next.js.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../testing/test-database';
import { keepAliveSeconds, startWebServer, type WebServer } from './web-server';

await useTestDatabase();

let web: WebServer;

beforeAll(async () => {
  web = await startWebServer({ pages: { kind: 'none' }, port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await web.close();
});

describe('a web process without pages', () => {
  it('answers a page path 404 request.not_found in the envelope, with the API’s security headers', async () => {
    for (const path of ['/', '/messages', '/settings/api-keys?tab=1', '/_next/static/chunk.js']) {
      const response = await fetch(`${web.url}${path}`);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect((await response.json()).error.code).toBe('request.not_found');
    }
  });

  it('serves what is ours: health, readiness, the REST surface and webhooks', async () => {
    expect((await fetch(`${web.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${web.url}/readyz`)).status).toBe(200);
    const me = await fetch(`${web.url}/api/v1/auth/me`);
    expect(me.status).toBe(401);
    expect((await me.json()).error.code).toBe('auth.unauthenticated');
    const hook = await fetch(`${web.url}/hooks/wf/unknown-token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(hook.status).toBe(404);
    expect((await hook.json()).error.code).toBe('webhook.not_found');
  });

  it('refuses a WebSocket upgrade outside the real-time channel (no page has one)', async () => {
    const { port } = new URL(web.url);
    const closed = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write('GET /_next/webpack-hmr HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n');
      });
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
    expect(closed).toBe('');
  });

  it('keeps an answered connection open past Node’s 5 s, longer than a proxy keeps its upstream ones (60 s), and says so', async () => {
    const { port } = new URL(web.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('error', () => {}); // a reset shows as the missing second answer
    const answers = () => received.split('HTTP/1.1 ').length - 1;
    const until = async (count: number) => {
      for (const deadline = Date.now() + 5_000; answers() < count && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
      return answers();
    };
    try {
      socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(await until(1)).toBe(1);
      expect(keepAliveSeconds).toBeGreaterThan(60);
      expect(received).toMatch(new RegExp(`\\r\\nKeep-Alive: timeout=${keepAliveSeconds}\\r\\n`, 'i'));
      // Idle longer than Node's default: the same connection still answers.
      await new Promise((r) => setTimeout(r, 6_000));
      expect(socket.destroyed).toBe(false);
      socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(await until(2)).toBe(2);
    } finally {
      socket.destroy();
    }
  }, 20_000);
});
