/**
 * Candidates that change the request body: one mutation of a field (from the body schema), garbage
 * in place of the whole body (not JSON, other media types, bytes that are not UTF-8, nesting, the
 * 5 MB bound), and compounds of several field mutations.
 */
import { applyMutation, deepArrayText, deepObjectText, describePointer, longString, mutationsOf, type Mutation } from './mutations';
import type { FuzzOperation } from './operations';
import type { Rng } from './prng';
import type { SchemaContext } from './schema';
import type { BodyTemplate, CaseFamily, Candidate, RequestTemplate } from './templates';

export function bodyCandidates(context: SchemaContext, operation: FuzzOperation, base: RequestTemplate, rng: Rng): Candidate[] {
  if (!operation.body || base.body.kind !== 'json') return [];
  const bodyValue = base.body.value;
  return mutationsOf(context, operation.body.schema, bodyValue, [], rng).map((mutation: Mutation) => ({
    family: mutation.family,
    label: `body ${describePointer(mutation.pointer)}: ${mutation.remove ? 'removed' : mutation.label}`,
    template: { ...base, body: { kind: 'json', value: applyMutation(bodyValue, mutation) } },
    priority: mutation.family === 'proto-key' && mutation.pointer.length > 1,
    mutation,
  }));
}

const utf8 = (text: string) => new TextEncoder().encode(text);

function multipartBody(): { data: string; contentType: string } {
  const boundary = '----fuzzboundary';
  return {
    data: `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\na,b\r\n--${boundary}--\r\n`,
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** Garbage in place of the whole body: not JSON, other media types, broken bytes, nesting, the bound. */
export function rawBodyCandidates(operation: FuzzOperation, base: RequestTemplate): Candidate[] {
  if (operation.method === 'GET') return [];
  const json = (value: unknown, extra: Partial<Extract<BodyTemplate, { kind: 'json' }>> = {}): BodyTemplate => ({ kind: 'json', value, ...extra });
  const raw = (data: string | Uint8Array, contentType: string | null = 'application/json'): BodyTemplate => ({ kind: 'raw', data, contentType });
  const baseValue = base.body.kind === 'json' ? base.body.value : {};
  const list: [CaseFamily, string, BodyTemplate][] = [
    ['body', 'no body, no content type', { kind: 'none' }],
    ['body', 'empty body declared as JSON', raw('')],
    ['body', 'JSON null', raw('null')],
    ['body', 'JSON array', raw('[]')],
    ['body', 'JSON string', raw('"x"')],
    ['body', 'JSON number', raw('1')],
    ['body', 'truncated JSON', raw('{"a":')],
    ['body', 'not JSON', raw('not json at all')],
    ['body', 'single-quoted pseudo-JSON', raw("{'a':1}")],
    ['body', 'trailing comma', raw('{"a":1,}')],
    ['body', 'raw control character inside a JSON string', raw('{"a":"\u0000\u0001"}')],
    ['body', 'byte order mark before valid JSON', json(baseValue, { transformText: (text) => `\ufeff${text}` })],
    ['body', 'duplicate keys', json(baseValue, { transformText: (text) => (text.startsWith('{"') ? `{"zz_dup":1,"zz_dup":{"a":[1]},${text.slice(1)}` : text) })],
    ['deep-nesting', 'arrays nested 100,000 deep', raw(deepArrayText(100_000))],
    ['deep-nesting', 'objects nested 100,000 deep', raw(deepObjectText(100_000))],
    ['oversize', 'body beyond the 5 MB bound', raw(`{"x":"${longString(5 * 1024 * 1024 + 10)}"}`)],
    ['oversize', 'body just under the 5 MB bound', json(baseValue, { transformText: (text) => (text.startsWith('{"') ? `{"zz_pad":"${longString(5 * 1024 * 1024 - text.length - 40)}",${text.slice(1)}` : text) })],
    ['media-type', 'valid JSON sent as text/plain', json(baseValue, { contentType: 'text/plain' })],
    ['media-type', 'form-urlencoded body', raw('name=x&scopes=tables%3Aread', 'application/x-www-form-urlencoded')],
    ['media-type', 'multipart/form-data body', raw(multipartBody().data, multipartBody().contentType)],
    ['media-type', 'XML body', raw('<?xml version="1.0"?><a>1</a>', 'application/xml')],
    ['media-type', 'JSON declared in upper case', json(baseValue, { contentType: 'APPLICATION/JSON' })],
    ['media-type', 'JSON declared as UTF-16', json(baseValue, { contentType: 'application/json; charset=utf-16' })],
    ['media-type', 'JSON without a content type', json(baseValue, { contentType: null })],
    ['media-type', 'a malformed content type', json(baseValue, { contentType: 'application/json; charset="' })],
    ['encoding', 'invalid UTF-8 bytes inside a string', json(baseValue, { transformText: (text) => spliceBytes(text, [0xff, 0xfe, 0xc3, 0x28]) })],
    ['encoding', 'overlong UTF-8 encoding of "/"', json(baseValue, { transformText: (text) => spliceBytes(text, [0xc0, 0xaf]) })],
    ['encoding', 'UTF-8 encoded surrogate half', json(baseValue, { transformText: (text) => spliceBytes(text, [0xed, 0xa0, 0x80]) })],
    ['encoding', 'invalid UTF-8 outside strings', raw(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]))],
  ];
  return list.map(([family, label, body]) => ({ family, label: `body: ${label}`, template: { ...base, body } }));
}

/** The JSON text with `bytes` inserted at the start of its first string value (or appended). */
function spliceBytes(text: string, bytes: number[]): Uint8Array {
  const encoded = utf8(text);
  const marker = text.indexOf('":"');
  const at = marker >= 0 ? utf8(text.slice(0, marker + 3)).byteLength : encoded.byteLength;
  const out = new Uint8Array(encoded.byteLength + bytes.length);
  out.set(encoded.subarray(0, at), 0);
  out.set(bytes, at);
  out.set(encoded.subarray(at), at + bytes.length);
  return out;
}

/** Two or three single body mutations applied together, sometimes with a query mutation. */
export function compoundCandidates(singles: Candidate[], base: RequestTemplate, count: number, rng: Rng): Candidate[] {
  const bodyOnes = singles.filter((candidate) => candidate.mutation && candidate.mutation.pointer.length > 0);
  const queryOnes = singles.filter((candidate) => candidate.label.startsWith('query '));
  if (bodyOnes.length < 2 || base.body.kind !== 'json') return [];
  const out: Candidate[] = [];
  for (let index = 0; index < count; index++) {
    const picks = rng.sample(bodyOnes, rng.int(2, 3));
    const value = picks.reduce((current, pick) => applyMutation(current, pick.mutation!), base.body.value);
    const queryPick = queryOnes.length && rng.chance(0.3) ? rng.pick(queryOnes) : null;
    out.push({
      family: 'compound',
      label: `compound: ${[...picks, ...(queryPick ? [queryPick] : [])].map((pick) => pick.label).join(' + ')}`,
      template: { ...base, query: queryPick ? queryPick.template.query : base.query, body: { kind: 'json', value } },
    });
  }
  return out;
}
