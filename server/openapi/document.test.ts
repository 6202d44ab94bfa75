import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { handleOpenApiRequest } from '../http/openapi-route';
import { routeTable } from '../trpc/route-table';
import { openApiDocument } from './document';
import { extraPaths } from './extra-paths';

type Operation = {
  summary: string;
  description: string;
  security: Record<string, string[]>[];
  responses: Record<string, unknown>;
  'x-access': { kind: string; scope?: string };
};

function operations(lang: 'en' | 'fr') {
  const document = openApiDocument(lang);
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>).map(([method, operation]) => ({ path, method, operation })),
  );
}

describe('OpenAPI document', () => {
  it.each(['en', 'fr'] as const)('validates as OpenAPI 3.1 (%s)', async (lang) => {
    const document = openApiDocument(lang);
    expect(document.openapi).toMatch(/^3\.1\./);
    const result = await new Validator().validate(structuredClone(document) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('contains every route the router defines, plus the hand-declared ones', () => {
    const listed = new Set(operations('en').map(({ path, method }) => `${method.toUpperCase()} ${path}`));
    const expected = [
      ...routeTable().map((entry) => `${entry.spec!.method} ${entry.spec!.path}`),
      ...extraPaths.map((extra) => `${extra.method.toUpperCase()} ${extra.path}`),
    ];
    expect(expected.filter((route) => !listed.has(route))).toEqual([]);
    expect(listed.size).toBe(expected.length);
  });

  it('describes every route in English and in French', () => {
    const english = operations('en');
    const french = operations('fr');
    for (const [index, { path, method, operation }] of english.entries()) {
      const fr = french[index].operation;
      expect(operation.summary, `${method} ${path}`).toBeTruthy();
      expect(operation.description, `${method} ${path}`).toBeTruthy();
      expect(fr.summary, `${method} ${path} fr`).toBeTruthy();
      expect(fr.description, `${method} ${path} fr`).toBeTruthy();
      expect(fr.summary, `${method} ${path} is translated`).not.toBe(operation.summary);
    }
  });

  it('shows each route’s access rule and scope', () => {
    const byRoute = new Map(operations('en').map(({ path, method, operation }) => [`${method} ${path}`, operation]));
    expect(byRoute.get('post /api/v1/admin/api-keys/{id}/revoke')!.security).toEqual([{ sessionCookie: [] }, { apiKey: ['admin:write'] }]);
    expect(byRoute.get('post /api/v1/api-keys')!.security).toEqual([{ sessionCookie: [] }]);
    expect(byRoute.get('post /api/v1/auth/login')!.security).toEqual([]);
    expect(byRoute.get('get /api/v1/admin/members')!['x-access']).toMatchObject({ kind: 'scope', scope: 'admin:read', admin: true });
  });

  it('shows the success status the spec gives and the error envelope', () => {
    const byRoute = new Map(operations('en').map(({ path, method, operation }) => [`${method} ${path}`, operation]));
    const create = byRoute.get('post /api/v1/api-keys')!;
    expect(Object.keys(create.responses)).toContain('201');
    expect(Object.keys(create.responses)).not.toContain('200');
    expect(create.responses['403']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      'x-error-codes': ['api_key.session_required'],
    });
    expect(Object.keys(byRoute.get('post /api/v1/auth/invitations/accept')!.responses)).toContain('201');
  });

  it('is served by GET /api/v1/openapi.json, 400 for an unknown lang', async () => {
    const fr = handleOpenApiRequest(new Request('http://localhost/api/v1/openapi.json?lang=fr'));
    expect(fr.status).toBe(200);
    expect((await fr.json()).info.title).toBe(openApiDocument('fr').info.title);
    const bad = handleOpenApiRequest(new Request('http://localhost/api/v1/openapi.json?lang=de'));
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe('request.bad_request');
  });
});
