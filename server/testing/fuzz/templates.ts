/**
 * The shape of a fuzz request before it is sent: path parameters, query entries, headers and body,
 * any of which may hold world references (values.ts) resolved at send time.
 */
import { bodyHint, pathParamRef, queryHint } from './hints';
import type { Family, Mutation } from './mutations';
import type { FuzzOperation } from './operations';
import type { Rng } from './prng';
import { sampleOf, type SchemaContext } from './schema';
import { WorldRef } from './values';

export type CaseFamily = Family | 'valid' | 'body' | 'media-type' | 'encoding' | 'headers' | 'auth' | 'compound' | 'query';

/** A query entry; `raw` entries are written into the URL exactly as given (bad percent-encodings). */
export interface QueryEntry {
  name: string;
  value: unknown;
  raw?: boolean;
}

export type BodyTemplate =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown; contentType?: string | null; transformText?: (text: string) => string | Uint8Array }
  | { kind: 'raw'; data: string | Uint8Array; contentType: string | null };

export interface RequestTemplate {
  /** Values of path parameters; a `RawSegment` is written as is, anything else percent-encoded. */
  pathParams: Record<string, unknown>;
  query: QueryEntry[];
  headers: Record<string, unknown>;
  body: BodyTemplate;
}

export class RawSegment {
  constructor(readonly text: string) {}
}

/** A malformed variant of the valid request, before a credential is chosen for it. */
export interface Candidate {
  family: CaseFamily;
  label: string;
  template: RequestTemplate;
  /** Always sent, whatever the budget (prototype names as keys of maps: issue 6, item 3). */
  priority?: boolean;
  credentialOverride?: { headers: Record<string, unknown> };
  /** The body mutation it applies, for compound cases. */
  mutation?: Mutation;
}

/** The valid request of an operation: schema samples, with fixtures where hints know them. */
export function baseTemplate(context: SchemaContext, operation: FuzzOperation, rng: Rng): RequestTemplate {
  const pathParams: Record<string, unknown> = {};
  for (const parameter of operation.pathParams) {
    pathParams[parameter.name] = pathParamRef(operation, parameter.name) ?? sampleOf(context, parameter.schema, rng, () => undefined);
  }
  const hint = queryHint(operation);
  const query = operation.queryParams.map((parameter) => ({
    name: parameter.name,
    value: sampleOf(context, parameter.schema, rng, hint, [parameter.name]),
  }));
  const headers: Record<string, unknown> = {};
  for (const parameter of operation.headerParams) {
    headers[parameter.name] = parameter.name.toLowerCase() === 'idempotency-key' ? new WorldRef('unique.slug') : sampleOf(context, parameter.schema, rng, () => undefined);
  }
  const body: BodyTemplate = operation.body
    ? { kind: 'json', value: sampleOf(context, operation.body.schema, rng, bodyHint(operation)) }
    : { kind: 'none' };
  return { pathParams, query, headers, body };
}
