/**
 * Issue 25 §5: the API reference page and its files, served by the instance through the API entry
 * (the same handler the web server calls), with the page's own strict policy and the document in the
 * reader's language. The browser side (try-it with a key, nothing stored, no other origin) is
 * e2e/ui/api-reference.spec.ts.
 */
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { handleApiRequest, isApiRequest } from '../api-handler';
import { openApiDocument } from '../plain/routes';
import { referenceAssetNames } from './reference-assets';

function get(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return handleApiRequest(new Request(`http://localhost${path}`, { headers }));
}

function directives(policy: string | null): Map<string, string[]> {
  return new Map((policy ?? '').split(';').map((part) => part.trim().split(/\s+/)).filter((words) => words[0]).map(([name, ...values]) => [name, values]));
}

/** The addresses of the page's scripts and stylesheets, in document order. */
function loadedFiles(html: string): string[] {
  return [...html.matchAll(/<(?:script src|link rel="stylesheet" href)="([^"]+)"/g)].map((match) => match[1]);
}

describe('GET /api/reference', () => {
  it('answers the page as HTML under a policy that allows this origin only and no inline script', async () => {
    const response = await get('/api/reference?lang=en');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const policy = directives(response.headers.get('content-security-policy'));
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('style-src')).toEqual(["'self'"]);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('form-action')).toEqual(["'none'"]);
    // No source names another origin: only keywords, and data: images.
    for (const [name, sources] of policy) for (const source of sources) expect(source, name).toMatch(/^('self'|'none'|data:)$/);

    const html = await response.text();
    expect(html).toContain('<html lang="en"');
    expect(html).toContain('<title>API reference · ');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(html).not.toMatch(/\sstyle=/);
    expect(html).toContain('data-document="/api/v1/openapi.json?lang=en"');
    expect(html).toContain('href="/settings/api-keys"');
  });

  it('loads every file from this origin, each answered with its type', async () => {
    const html = await (await get('/api/reference?lang=en')).text();
    const files = loadedFiles(html);
    expect(files.map((file) => file.split('/').pop()).sort()).toEqual([...referenceAssetNames].sort());
    for (const file of files) {
      expect(file, 'a path on this origin').toMatch(/^\/api\/reference\/assets\/[\w.-]+$/);
      const response = await get(file);
      expect(response.status, file).toBe(200);
      expect(response.headers.get('content-type'), file).toBe(file.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8');
      expect(response.headers.get('x-content-type-options'), file).toBe('nosniff');
      const text = await response.text();
      expect(text.length, file).toBeGreaterThan(100);
      // The source maps are not served, so nothing points a browser at them.
      expect(text.includes('sourceMappingURL'), file).toBe(false);
    }
  });

  it('serves the Swagger UI bundle gzipped when the browser takes it, and 304 while the browser holds the same version', async () => {
    const plain = await get('/api/reference/assets/swagger-ui-bundle.js');
    const plainBytes = Buffer.from(await plain.arrayBuffer());
    expect(plainBytes.toString('utf8')).toContain('SwaggerUIBundle');
    const etag = plain.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(plain.headers.get('cache-control')).toBe('no-cache');
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');

    const gzipped = await get('/api/reference/assets/swagger-ui-bundle.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    const gzippedBytes = Buffer.from(await gzipped.arrayBuffer());
    expect(gzippedBytes.length).toBeLessThan(plainBytes.length / 2);
    expect(gunzipSync(gzippedBytes).equals(plainBytes)).toBe(true);

    const refused = await get('/api/reference/assets/swagger-ui-bundle.js', { 'accept-encoding': 'gzip;q=0, identity' });
    expect(refused.headers.get('content-encoding')).toBeNull();

    const revalidated = await get('/api/reference/assets/swagger-ui-bundle.js', { 'if-none-match': etag! });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');
  });

  it.each([
    ['an unknown name', '/api/reference/assets/swagger-ui.js.map'],
    ['a path out of the table', '/api/reference/assets/..%2Fpackage.json'],
    ['an inherited property name', '/api/reference/assets/constructor'],
    // Found by the fuzz: no route matches an empty name, and the page 404 of Next.js answered instead.
    ['an empty name', '/api/reference/assets/'],
    ['a deeper path', '/api/reference/assets/a/b'],
  ])('answers 404 for %s', async (_name, path) => {
    expect(isApiRequest(path)).toBe(true);
    const response = await get(path);
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe('request.not_found');
  });

  it('shows the French document with ?lang=fr, the switch marking Français', async () => {
    const html = await (await get('/api/reference?lang=fr')).text();
    expect(html).toContain('<html lang="fr"');
    expect(html).toContain('<title>Référence de l’API · ');
    expect(html).toContain('data-document="/api/v1/openapi.json?lang=fr"');
    expect(html).toMatch(/<a href="\/api\/reference\?lang=fr" lang="fr" hreflang="fr" aria-current="true">Français<\/a>/);
    expect(html).toMatch(/<a href="\/api\/reference\?lang=en" lang="en" hreflang="en">English<\/a>/);

    const document = await get('/api/v1/openapi.json?lang=fr');
    expect((await document.json()).info.title).toBe(openApiDocument('fr').info.title);
  });

  it.each([
    ['French first in Accept-Language', { 'accept-language': 'fr-CA,fr;q=0.9,en;q=0.8' }, 'fr'],
    ['French ranked above English', { 'accept-language': 'en;q=0.5, fr;q=0.8' }, 'fr'],
    ['neither language', { 'accept-language': 'de-DE, es;q=0.5' }, 'en'],
    ['no Accept-Language', {}, 'en'],
    ['the application’s language cookie over the browser', { 'accept-language': 'fr', cookie: 'mailflow-locale=en' }, 'en'],
  ] as const)('without ?lang picks the language from %s', async (_name, headers, expected) => {
    const html = await (await get('/api/reference', headers)).text();
    expect(html).toContain(`<html lang="${expected}"`);
    expect(html).toContain(`data-document="/api/v1/openapi.json?lang=${expected}"`);
  });

  it('takes ?lang over the language cookie, and refuses a language it does not have', async () => {
    expect(await (await get('/api/reference?lang=en', { cookie: 'mailflow-locale=fr' })).text()).toContain('<html lang="en"');
    const unknown = await get('/api/reference?lang=de');
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error.code).toBe('request.bad_request');
  });

  it('follows the application’s theme cookie, else the browser’s preference', async () => {
    expect(await (await get('/api/reference', { cookie: 'theme=dark' })).text()).toContain('<html lang="en" data-theme="dark" class="dark-mode">');
    const system = await (await get('/api/reference', { cookie: 'theme=system' })).text();
    expect(system).toContain('<html lang="en">');
    expect(system).toContain('<meta name="color-scheme" content="light dark">');
  });

  it('is listed in the OpenAPI document as a public page of the instance', () => {
    const page = openApiDocument('en').paths?.['/api/reference']?.get as unknown as { security: unknown[]; 'x-access': { kind: string }; responses: Record<string, { content?: Record<string, unknown> }> };
    expect(page.security).toEqual([]);
    expect(page['x-access'].kind).toBe('public');
    expect(Object.keys(page.responses['200'].content!)).toEqual(['text/html']);
  });
});
