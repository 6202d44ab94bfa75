/**
 * The OpenAPI 3.1 document, generated from the real route schemas by trpc-to-openapi and then
 * completed from our route meta: the success status (201/202), the error envelope for every status a
 * route can answer, the access rule as a security requirement plus `x-access`, the Idempotency-Key
 * header, and the French texts for `lang=fr`. Built once per language per process.
 */
import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { errorCodes, statusOf, type ErrorCode } from '../core/errors/catalogue';
import type { Access } from '../core/auth/access';
import type { RouteSpec } from '../trpc/meta';
import { appRouter } from '../trpc/root';
import { routeTable } from '../trpc/route-table';
import { extraPaths } from './extra-paths';
import { serviceVersion } from '../core/version';

export type Lang = 'en' | 'fr';

const texts = {
  en: {
    title: 'Mail workflow automation service API',
    description:
      'REST API of the service. Authenticate with the `session` cookie (web interface) or `Authorization: Bearer <API key>` (programs). Errors answer `{"error":{"code","message","details"}}`.',
    success: 'Successful response',
    error: 'Error; `error.code` is one of the listed codes.',
  },
  fr: {
    title: 'API du service d’automatisation du courrier',
    description:
      'API REST du service. Authentification par le cookie `session` (interface web) ou `Authorization: Bearer <clé d’API>` (programmes). Les erreurs répondent `{"error":{"code","message","details"}}`.',
    success: 'Réponse réussie',
    error: 'Erreur ; `error.code` est l’un des codes listés.',
  },
} as const;

/** Codes every route with this access rule can answer, besides its own. */
export function commonErrorCodes(access: Access, hasInput: boolean): ErrorCode[] {
  const codes: ErrorCode[] = ['request.payload_too_large', 'internal.error'];
  if (hasInput) codes.push('request.bad_request');
  if (access.kind === 'public' || access.kind === 'urlToken') return codes;
  codes.push('auth.unauthenticated', 'api_key.rate_limited');
  if (access.kind === 'session') codes.push('api_key.session_required');
  if (access.kind === 'noKeys') codes.push('api_key.route_not_allowed');
  if (access.kind === 'scope') codes.push('api_key.scope_missing');
  if ('admin' in access && access.admin) codes.push('auth.forbidden');
  return codes;
}

function securityOf(access: Access): Record<string, string[]>[] {
  switch (access.kind) {
    case 'public':
    case 'urlToken':
      return [];
    case 'session':
    case 'noKeys':
      return [{ sessionCookie: [] }];
    case 'member':
      return [{ sessionCookie: [] }, { apiKey: [] }];
    case 'scope':
      return [{ sessionCookie: [] }, { apiKey: [access.scope] }];
  }
}

const errorSchemaRef = { $ref: '#/components/schemas/Error' };

function errorResponses(codes: ErrorCode[], lang: Lang) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) byStatus.set(statusOf(code), [...(byStatus.get(statusOf(code)) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      String(status),
      {
        description: `${texts[lang].error} (${list.join(', ')})`,
        content: { 'application/json': { schema: errorSchemaRef } },
        'x-error-codes': list,
      },
    ]),
  );
}

type Operation = Record<string, unknown> & { responses: Record<string, Record<string, unknown>>; parameters?: unknown[]; requestBody?: unknown };

function completeOperation(operation: Operation, spec: RouteSpec, lang: Lang): void {
  const hasInput = Boolean(operation.requestBody) || Boolean(operation.parameters?.length);
  const success = operation.responses['200'];
  operation.responses = {
    [String(spec.status ?? 200)]: { ...success, description: texts[lang].success },
    ...errorResponses([...commonErrorCodes(spec.access, hasInput), ...(spec.errors ?? [])], lang),
  };
  operation.summary = spec.summary[lang];
  operation.description = spec.description[lang];
  operation.security = securityOf(spec.access);
  operation['x-access'] = { ...spec.access, idempotent: Boolean(spec.idempotent) };
  if (spec.idempotent) {
    operation.parameters = [
      ...(operation.parameters ?? []),
      { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 200 } },
    ];
  }
}

function extraOperations(lang: Lang) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const extra of extraPaths) {
    paths[extra.path] ??= {};
    paths[extra.path][extra.method] = {
      tags: [extra.tag],
      summary: extra.summary[lang],
      description: extra.description[lang],
      security: securityOf(extra.access),
      'x-access': { ...extra.access, idempotent: false },
      ...(extra.parameters ? { parameters: extra.parameters } : {}),
      responses: Object.fromEntries(
        Object.entries(extra.responses).map(([status, response]) => [
          status,
          {
            description: response[lang],
            ...(response.schema
              ? { content: { [response.mediaType ?? 'application/json']: { schema: response.schema } } }
              : Number(status) >= 400
                ? { content: { 'application/json': { schema: errorSchemaRef } } }
                : {}),
          },
        ]),
      ),
    };
  }
  return paths;
}

function buildDocument(lang: Lang): OpenAPIObject {
  const document = generateOpenApiDocument(appRouter, {
    title: texts[lang].title,
    description: texts[lang].description,
    version: serviceVersion,
    baseUrl: '/',
    securitySchemes: {
      sessionCookie: { type: 'apiKey', in: 'cookie', name: 'session' },
      apiKey: { type: 'http', scheme: 'bearer', description: 'API key `mk_...`; the requirement lists the scope the route needs.' },
    },
  });
  document.servers = [{ url: '/' }];
  for (const entry of routeTable()) {
    if (!entry.spec) continue;
    const operation = document.paths?.[entry.spec.path]?.[entry.spec.method.toLowerCase() as 'get'] as Operation | undefined;
    if (operation) completeOperation(operation, entry.spec, lang);
  }
  document.paths = { ...document.paths, ...extraOperations(lang) } as OpenAPIObject['paths'];
  document.components = {
    ...document.components,
    schemas: {
      ...document.components?.schemas,
      Error: {
        type: 'object',
        required: ['error'],
        properties: {
          error: {
            type: 'object',
            required: ['code', 'message', 'details'],
            properties: {
              code: { type: 'string', enum: errorCodes },
              message: { type: 'string' },
              details: { type: 'object', additionalProperties: true },
            },
          },
        },
      },
    },
  };
  return document;
}

const cache = new Map<Lang, OpenAPIObject>();

export function openApiDocument(lang: Lang): OpenAPIObject {
  let document = cache.get(lang);
  if (!document) {
    document = buildDocument(lang);
    cache.set(lang, document);
  }
  return document;
}
