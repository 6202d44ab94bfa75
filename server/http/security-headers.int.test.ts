/**
 * Issue 18 item 6: no answer of the application may be framed by another page (clickjacking of the
 * send and approve buttons), and pages carry a Content-Security-Policy whose nonce Next.js stamps on
 * its scripts. Real node:http servers on loopback; the page side runs the web server's page stamping
 * in front of a stand-in for Next.js that reads the nonce with Next's own reader (the production
 * server's pages are checked end to end in e2e/api/platform.spec.ts and e2e/ui/framing.spec.ts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
// eslint-disable-next-line no-restricted-imports -- the test checks the nonce with the reader Next.js itself uses
import { getScriptNonceFromHeaders } from 'next/dist/server/app-render/get-script-nonce-from-header';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBridgeServer, type BridgeServer } from '../testing/bridge-server';
import { createMember, type TestMember } from '../testing/factories';
import { useTestDatabase } from '../testing/test-database';
import { handleApiRequest } from './api-handler';
import { securePageRequest } from './security-headers';

await useTestDatabase();

let api: BridgeServer;
let pages: Server;
let pagesBase: string;
let member: TestMember;

beforeAll(async () => {
  member = await createMember();
  api = await startBridgeServer(handleApiRequest);
  // What Next.js would do with the request: render with the nonce it reads from the request headers.
  pages = createServer((req, res) => {
    securePageRequest(req, res, { dev: false });
    const nonce = getScriptNonceFromHeaders(req.headers);
    res.setHeader('content-type', 'text/html');
    res.end(`<!doctype html><script nonce="${nonce}">self.__next_f=[]</script>`);
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  pagesBase = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await api.close();
  await new Promise<void>((resolve) => pages.close(() => resolve()));
});

function directives(policy: string | null): Map<string, string[]> {
  return new Map((policy ?? '').split(';').map((part) => part.trim().split(/\s+/)).filter((words) => words[0]).map(([name, ...values]) => [name, values]));
}

describe('API answers may not be framed', () => {
  it.each([
    ['a public JSON answer', '/api/v1/branding', {}],
    ['an authenticated JSON answer', '/api/v1/auth/me', { cookie: '' }],
    ['an error', '/api/v1/nothing-here', {}],
    ['a plain route', '/healthz', {}],
  ] as const)('%s carries X-Frame-Options: DENY and a policy that loads nothing and forbids framing', async (_name, path, headers) => {
    const response = await fetch(`${api.base}${path}`, { headers: 'cookie' in headers ? { cookie: member.cookie } : {} });
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    const policy = directives(response.headers.get('content-security-policy'));
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('keeps the own stricter policy of an approval link page', async () => {
    const response = await fetch(`${api.base}/api/v1/approvals/t/${'x'.repeat(43)}/approve`, { headers: { accept: 'text/html', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' } });
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(directives(response.headers.get('content-security-policy')).get('form-action')).toEqual(["'self'"]);
  });
});

describe('pages may not be framed and run only the scripts Next.js stamps', () => {
  it('sends X-Frame-Options: DENY and a policy with frame-ancestors none, a nonce and strict-dynamic for scripts', async () => {
    const response = await fetch(`${pagesBase}/review`);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    const policy = directives(response.headers.get('content-security-policy'));
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    const scripts = policy.get('script-src') ?? [];
    expect(scripts).toContain("'strict-dynamic'");
    expect(scripts).not.toContain("'unsafe-inline'");
    expect(scripts).not.toContain("'unsafe-eval'");
    const nonce = /^'nonce-(.+)'$/.exec(scripts.find((source) => source.startsWith("'nonce-")) ?? '')?.[1];
    expect(nonce).toBeTruthy();
    // Next.js reads the nonce from the request and stamps its scripts with it.
    expect(await response.text()).toContain(`<script nonce="${nonce}">`);
  });

  it('draws a fresh nonce for every page, whatever the client sent in that header', async () => {
    const nonces = new Set<string>();
    for (let index = 0; index < 5; index += 1) {
      const response = await fetch(`${pagesBase}/`, { headers: { 'content-security-policy': "script-src 'nonce-chosen-by-client'" } });
      const html = await response.text();
      expect(html).not.toContain('chosen-by-client');
      nonces.add(/nonce="([^"]+)"/.exec(html)![1]);
    }
    expect(nonces.size).toBe(5);
  });
});
