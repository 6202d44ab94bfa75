import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { throttleBuckets, throttleDescription, type ThrottleBucketName } from '../core/http/member-throttles';
import { handleApiRequest } from '../http/api-handler';
import { openApiDocument, plainRoutes } from '../http/plain/routes';
import { routeTable } from '../trpc/route-table';
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

  it('contains every procedure, every plain route and the hand-declared WebSocket, each once', () => {
    const listed = new Set(operations('en').map(({ path, method }) => `${method.toUpperCase()} ${path}`));
    const expected = [
      ...routeTable().map((entry) => `${entry.spec!.method} ${entry.spec!.path}`),
      ...plainRoutes.map((route) => `${route.method} ${route.path}`),
      ...extraPaths.map((extra) => `${extra.method.toUpperCase()} ${extra.path}`),
    ];
    expect(expected.filter((route) => !listed.has(route))).toEqual([]);
    expect(new Set(expected).size).toBe(expected.length);
    expect(listed.size).toBe(expected.length);
  });

  it('takes each plain route’s access rule and parameters from its declaration alone', () => {
    const byRoute = new Map(operations('en').map(({ path, method, operation }) => [`${method.toUpperCase()} ${path}`, operation]));
    for (const route of plainRoutes) {
      const operation = byRoute.get(`${route.method} ${route.path}`) as Operation & { parameters?: { name: string; in: string }[] };
      expect(operation['x-access'], route.path).toMatchObject(route.access);
      const declared = [...Object.keys(route.params.shape), ...Object.keys(route.query?.shape ?? {})].sort();
      expect((operation.parameters ?? []).filter((p) => p.in !== 'header').map((p) => p.name).sort(), route.path).toEqual(declared);
    }
    // Only what no declaration can describe is written by hand.
    expect(extraPaths.map((extra) => extra.path)).toEqual(['/api/v1/ws']);
  });

  it('documents the export’s view parameters from the rows query schema, with its CSV answer', () => {
    const exportOperation = openApiDocument('en').paths?.['/api/v1/tables/{id}/export.csv']?.get as unknown as {
      parameters: { name: string; in: string; required: boolean; schema: { enum?: string[] } }[];
      responses: Record<string, { content?: Record<string, unknown> }>;
    };
    const parameters = new Map(exportOperation.parameters.map((parameter) => [parameter.name, parameter]));
    expect(parameters.get('id')).toMatchObject({ in: 'path', required: true });
    expect(parameters.get('dir')).toMatchObject({ in: 'query', required: false, schema: { enum: ['asc', 'desc'] } });
    expect(parameters.get('raw')).toMatchObject({ in: 'query', required: false, schema: { enum: ['true', 'false'] } });
    expect([...parameters.keys()].sort()).toEqual(['dir', 'filter', 'id', 'match', 'q', 'raw', 'sort']);
    expect(Object.keys(exportOperation.responses['200'].content!)).toEqual(['text/csv']);
    expect(Object.keys(exportOperation.responses)).toEqual(expect.arrayContaining(['400', '401', '403', '404', '429', '500', '503']));
  });

  it('lists auth.cross_origin on state-changing routes that are not urlToken, and not on reads', () => {
    const byRoute = new Map(operations('en').map(({ path, method, operation }) => [`${method} ${path}`, operation]));
    const codesOf = (name: string) =>
      Object.values(byRoute.get(name)!.responses).flatMap((response) => (response as { 'x-error-codes'?: string[] })['x-error-codes'] ?? []);
    expect(codesOf('post /api/v1/tables')).toContain('auth.cross_origin');
    expect(codesOf('post /api/v1/auth/login')).toContain('auth.cross_origin');
    expect(codesOf('get /api/v1/tables')).not.toContain('auth.cross_origin');
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
      'x-error-codes': ['auth.cross_origin', 'api_key.session_required'],
    });
    expect(Object.keys(byRoute.get('post /api/v1/auth/invitations/accept')!.responses)).toContain('201');
  });

  it('is served by GET /api/v1/openapi.json, 400 for an unknown lang', async () => {
    const fr = await handleApiRequest(new Request('http://localhost/api/v1/openapi.json?lang=fr'));
    expect(fr.status).toBe(200);
    expect((await fr.json()).info.title).toBe(openApiDocument('fr').info.title);
    const bad = await handleApiRequest(new Request('http://localhost/api/v1/openapi.json?lang=de'));
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe('request.bad_request');
  });
});

/** Issue 18 item 5: each per-member throttle is documented in its routes' descriptions and in the README. */
describe('per-member throttles in the document', () => {
  const throttled: Record<string, ThrottleBucketName> = {
    'POST /api/v1/mailboxes/imap': 'connection_checks',
    'POST /api/v1/credentials/{id}/test': 'connection_checks',
    'POST /api/v1/mailboxes/{id}/analyze': 'forced_analyses',
    'POST /api/v1/workflows/{id}/test-runs': 'test_runs',
    'POST /api/v1/workflows/{id}/eval-runs': 'eval_runs',
    'POST /api/v1/messages/attachments': 'uploads',
    'POST /api/v1/assistant/conversations/{id}/turns': 'assistant_turns',
  };

  it.each(['en', 'fr'] as const)('describes the throttle of exactly these routes, with 429 request.throttled (%s)', (lang) => {
    const found: Record<string, string> = {};
    for (const { path, method, operation } of operations(lang)) {
      const extension = (operation as Operation & { 'x-throttle'?: { bucket: ThrottleBucketName } })['x-throttle'];
      if (!extension) continue;
      const name = `${method.toUpperCase()} ${path}`;
      found[name] = extension.bucket;
      const { defaultLimit, setting } = throttleBuckets[extension.bucket];
      expect(operation.description, name).toContain(throttleDescription(extension.bucket, lang));
      expect(operation.description, name).toContain(`${defaultLimit} `);
      expect(operation.description, name).toContain(setting);
      expect(JSON.stringify(operation.responses['429']), name).toContain('request.throttled');
    }
    expect(found).toEqual(throttled);
  });

  it('lists every throttle, the session limit and the key cap in the README with their settings and defaults', () => {
    const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
    for (const { setting, defaultLimit } of Object.values(throttleBuckets)) {
      expect(readme).toMatch(new RegExp(`\\| \`${setting}\` \\| ${defaultLimit} `));
    }
    expect(readme).toMatch(/\| `SESSION_RATE_LIMIT` \| 1,?200 /);
    expect(readme).toMatch(/\| `API_KEYS_MAX_PER_MEMBER` \| 50 /);
  });
});
