/**
 * The OpenAPI entries of plain routes, generated from their declarations: parameters from the zod
 * schemas of path and query, the body's media types and bound, the success answer, and the error
 * envelope for the route's own codes plus the common ones of its access rule, body and limits.
 */
import { z } from 'zod';
import { maxBodyBytes } from '../http/body';
import { perIpLimitOf, type PlainRoute } from '../http/plain/plain-route';
import { commonErrorCodes, describedWithThrottle, errorResponses, securityOf, throttleExtension, type Lang } from './common';

type JsonSchema = Record<string, unknown>;

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

function parametersOf(schema: z.ZodObject | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const json = jsonSchemaOf(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...propertySchema } = property;
    return {
      name,
      in: where,
      required: where === 'path' || Boolean(json.required?.includes(name)),
      schema: propertySchema,
      ...(typeof description === 'string' ? { description } : {}),
    };
  });
}

function requestBodyOf(route: PlainRoute, lang: Lang): JsonSchema | undefined {
  if (!route.body) return undefined;
  const { schema, mediaTypes, description } = route.body;
  return {
    required: true,
    ...(description ? { description: description[lang] } : {}),
    content: Object.fromEntries(
      mediaTypes.map((mediaType) => [
        mediaType,
        { schema: schema && mediaType === 'application/json' ? jsonSchemaOf(schema, 'input') : { type: 'string', contentMediaType: mediaType } },
      ]),
    ),
  };
}

function operationOf(route: PlainRoute, lang: Lang): JsonSchema {
  const parameters = [...parametersOf(route.params, 'path'), ...parametersOf(route.query, 'query')];
  if (route.idempotent) {
    parameters.push({ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 200 } });
  }
  const requestBody = requestBodyOf(route, lang);
  const { success } = route;
  const perIpLimit = perIpLimitOf(route);
  const codes = commonErrorCodes({
    access: route.access,
    method: route.method,
    path: route.path,
    hasInput: parameters.length > 0 || Boolean(requestBody),
    idempotent: route.idempotent,
    rateLimited: perIpLimit !== null,
    throttled: Boolean(route.throttle),
  });
  return {
    tags: [route.tag],
    summary: route.summary[lang],
    description: describedWithThrottle(route.description[lang], route.throttle?.bucket, lang),
    security: securityOf(route.access),
    'x-access': { ...route.access, idempotent: Boolean(route.idempotent) },
    ...(perIpLimit ? { 'x-rate-limit-per-ip': perIpLimit } : {}),
    ...throttleExtension(route.throttle?.bucket),
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody, 'x-max-body-bytes': route.maxBodyBytes ?? maxBodyBytes } : {}),
    responses: {
      [String(success.status)]: {
        description: success.description[lang],
        ...(success.status === 302 ? { headers: { Location: { description: success.description[lang], schema: { type: 'string', format: 'uri' } } } } : {}),
        ...(success.status === 204 || success.status === 302
          ? {}
          : { content: { [success.mediaType]: { schema: success.schema ? jsonSchemaOf(success.schema, 'output') : { type: 'string' } } } }),
      },
      ...errorResponses([...codes, ...(route.errors ?? [])], lang),
    },
  };
}

export function plainOperations(routes: readonly PlainRoute[], lang: Lang): Record<string, Record<string, JsonSchema>> {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    paths[route.path] ??= {};
    paths[route.path][route.method.toLowerCase()] = operationOf(route, lang);
  }
  return paths;
}
