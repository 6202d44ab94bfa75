/**
 * The OpenAPI 3.1 document, generated from the real route schemas by trpc-to-openapi and then
 * completed from our route meta: the success status (201/202), the error envelope for every status a
 * route can answer, the access rule as a security requirement plus `x-access`, the Idempotency-Key
 * header, and the French texts for `lang=fr`. Built once per language per process.
 *
 * The plain routes come in as an argument (`server/http/plain/routes.ts` binds the service's list), so this
 * module imports no route: the list holds the route that serves this document, and a document that
 * imported the list would close a circle through it.
 */
import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { errorCodes } from '../core/errors/catalogue';
import type { RouteSpec } from '../trpc/meta';
import { appRouter } from '../trpc/root';
import { routeTable } from '../trpc/route-table';
import type { PlainRoute } from '../http/plain/plain-route';
import { commonErrorCodes, describedWithThrottle, errorResponses, errorSchemaRef, securityOf, texts, throttleExtension, type Lang } from './common';
import { extraPaths } from './extra-paths';
import { plainOperations } from './plain-paths';
import { serviceVersion } from '../core/version';

export type { Lang } from './common';

type Operation = Record<string, unknown> & { responses: Record<string, Record<string, unknown>>; parameters?: unknown[]; requestBody?: unknown };

function completeOperation(operation: Operation, spec: RouteSpec, lang: Lang): void {
  const hasInput = Boolean(operation.requestBody) || Boolean(operation.parameters?.length);
  const success = operation.responses['200'];
  operation.responses = {
    [String(spec.status ?? 200)]: spec.status === 204 ? { description: texts[lang].success } : { ...success, description: texts[lang].success },
    ...(spec.alsoStatus ? { [String(spec.alsoStatus)]: { ...success, description: texts[lang].success } } : {}),
    ...errorResponses(
      [
        ...commonErrorCodes({ access: spec.access, method: spec.method, path: spec.path, hasInput, idempotent: spec.idempotent, throttled: Boolean(spec.throttle) }),
        ...(spec.badRequestCode ? [spec.badRequestCode] : []),
        ...(spec.errors ?? []),
      ],
      lang,
    ),
  };
  operation.summary = spec.summary[lang];
  operation.description = describedWithThrottle(spec.description[lang], spec.throttle?.bucket, lang);
  operation.security = securityOf(spec.access);
  operation['x-access'] = { ...spec.access, idempotent: Boolean(spec.idempotent) };
  Object.assign(operation, throttleExtension(spec.throttle?.bucket));
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

function buildDocument(lang: Lang, plainRoutes: readonly PlainRoute[]): OpenAPIObject {
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
  document.paths = { ...document.paths, ...plainOperations(plainRoutes, lang), ...extraOperations(lang) } as OpenAPIObject['paths'];
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

/** The document in each language for these plain routes (read when first asked for), built once per language. */
export function openApiDocumentOf(plainRoutes: () => readonly PlainRoute[]): (lang: Lang) => OpenAPIObject {
  const cache = new Map<Lang, OpenAPIObject>();
  return (lang) => {
    let document = cache.get(lang);
    if (!document) {
      document = buildDocument(lang, plainRoutes());
      cache.set(lang, document);
    }
    return document;
  };
}
