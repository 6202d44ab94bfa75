/**
 * The operations to fuzz, read from the generated OpenAPI document: every method of every path,
 * generated procedures and hand-declared extra paths alike, so a new route is fuzzed as soon as it
 * is in the document. Operations that are not a request answered by a response (a WebSocket
 * upgrade, declared with a `101` response) are set aside and reported.
 */
import type { Access } from '../../core/auth/access';
import { mainVariant, type Schema, type SchemaContext } from './schema';

export interface FuzzParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
}

export interface FuzzOperation {
  /** `METHOD /path/{template}`, the name used in reports. */
  id: string;
  method: string;
  path: string;
  access: Access & { idempotent?: boolean };
  pathParams: FuzzParameter[];
  queryParams: FuzzParameter[];
  headerParams: FuzzParameter[];
  /** The JSON request body's schema, when the operation takes one. */
  body: { schema: Schema; required: boolean } | null;
  /** Response statuses the document lists, and the error codes it names for them. */
  statuses: Set<number>;
  documentedCodes: Set<string>;
  /** Media type of each documented success response. */
  successMediaTypes: Map<number, string>;
}

const methods = ['get', 'put', 'post', 'patch', 'delete'] as const;

interface RawOperation {
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema }[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, unknown>; 'x-error-codes'?: string[]; description?: string }>;
  'x-access'?: Access & { idempotent?: boolean };
}

export function operationsOf(
  document: { paths?: Record<string, unknown> },
  context: SchemaContext,
): { operations: FuzzOperation[]; skipped: { id: string; reason: string }[] } {
  const operations: FuzzOperation[] = [];
  const skipped: { id: string; reason: string }[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of methods) {
      const raw = (item as Record<string, RawOperation | undefined>)[method];
      if (!raw) continue;
      const id = `${method.toUpperCase()} ${path}`;
      const responses = raw.responses ?? {};
      if (Object.hasOwn(responses, '101')) {
        skipped.push({ id, reason: 'WebSocket upgrade (101), not a request/response operation' });
        continue;
      }
      const parameters = (raw.parameters ?? []).map((parameter) => ({
        name: parameter.name,
        in: parameter.in as FuzzParameter['in'],
        required: Boolean(parameter.required),
        schema: context.resolve(parameter.schema ?? {}),
      }));
      const jsonBody = raw.requestBody?.content?.['application/json']?.schema;
      const documentedCodes = new Set<string>();
      const successMediaTypes = new Map<number, string>();
      for (const [status, response] of Object.entries(responses)) {
        for (const code of response['x-error-codes'] ?? []) documentedCodes.add(code);
        for (const code of response.description?.match(/`([a-z_]+\.[a-z_]+)`/g) ?? []) documentedCodes.add(code.slice(1, -1));
        const mediaType = Object.keys(response.content ?? {})[0];
        if (Number(status) < 300 && mediaType) successMediaTypes.set(Number(status), mediaType);
      }
      operations.push({
        id,
        method: method.toUpperCase(),
        path,
        access: raw['x-access'] ?? { kind: 'public' },
        pathParams: parameters.filter((parameter) => parameter.in === 'path'),
        queryParams: parameters.filter((parameter) => parameter.in === 'query'),
        headerParams: parameters.filter((parameter) => parameter.in === 'header'),
        body: jsonBody ? { schema: mainVariant(context, jsonBody), required: Boolean(raw.requestBody?.required) } : null,
        statuses: new Set(Object.keys(responses).map(Number)),
        documentedCodes,
        successMediaTypes,
      });
    }
  }
  return { operations, skipped };
}
