/**
 * Candidates that change the query string (every parameter's values, bad cursors, repeated and
 * bracketed names, prototype names as names), the path parameters (ids of other resources and
 * members, random and malformed ids, raw encodings) and the headers (broken credentials, foreign
 * origins, idempotency keys).
 */
import { foreignIds } from './hints';
import { applyMutation, inferSchema, jsonStringMutations, longString, mutationsOf, prototypeNames } from './mutations';
import type { FuzzOperation, FuzzParameter } from './operations';
import { createRng, type Rng } from './prng';
import { kindOf, mainVariant, randomUuid, schemaContext, type SchemaContext } from './schema';
import { RawSegment, type CaseFamily, type Candidate, type QueryEntry, type RequestTemplate } from './templates';
import { JsonString, toJsonText, WorldRef } from './values';

const numericQueryTexts = ['abc', '-1', '1.5', '1e400', 'NaN', 'Infinity', '-Infinity', '', '  ', '0x10', '1_000', '99999999999999999999', '9007199254740993', '-0', '١٢'];

function queryValues(context: SchemaContext, parameter: FuzzParameter, base: unknown, rng: Rng): { family: CaseFamily; label: string; value: unknown; raw?: boolean }[] {
  if (base instanceof JsonString) return jsonStringMutations(context, base, rng);
  const schema = mainVariant(context, parameter.schema);
  const kind = kindOf(schema);
  const out: { family: CaseFamily; label: string; value: unknown; raw?: boolean }[] = [];
  if (kind === 'integer' || kind === 'number') {
    for (const text of numericQueryTexts) out.push({ family: 'number-edge', label: JSON.stringify(text), value: text });
    if (schema.minimum !== undefined) out.push({ family: 'number-edge', label: 'minimum-1', value: String(schema.minimum - 1) });
    if (schema.maximum !== undefined) out.push({ family: 'number-edge', label: 'maximum+1', value: String(schema.maximum + 1) });
  } else if (kind === 'boolean') {
    for (const text of ['maybe', 'TRUE', '1', '0', '', 'false ']) out.push({ family: 'wrong-type', label: JSON.stringify(text), value: text });
  }
  for (const mutation of mutationsOf(context, kind === 'string' ? schema : { type: 'string' }, base, [], rng, 0)) {
    if (typeof mutation.value === 'string' || mutation.value instanceof WorldRef) out.push({ family: mutation.family, label: mutation.label, value: mutation.value });
  }
  if (/cursor/i.test(parameter.name)) out.push(...cursorValues(base, rng));
  for (const text of ['%', '%zz', '%FF', '%E0%A4%A', '%00', '%u0041', '+%20+']) out.push({ family: 'encoding', label: `raw ${text}`, value: text, raw: true });
  return out;
}

const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/** Bad cursors: structurally valid encodings of the wrong content, and damaged real cursors. */
function cursorValues(base: unknown, rng: Rng): { family: CaseFamily; label: string; value: unknown }[] {
  const out: { family: CaseFamily; label: string; value: unknown }[] = [];
  const randomBytes = Buffer.from(Array.from({ length: 24 }, () => rng.int(0, 255))).toString('base64url');
  out.push({ family: 'bad-cursor', label: 'random base64url', value: randomBytes });
  for (const text of ['{}', '[]', 'null', '"x"', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}', '{"t":1e400,"i":[]}']) {
    out.push({ family: 'bad-cursor', label: `base64url of ${text}`, value: base64url(text) });
  }
  if (base instanceof WorldRef) {
    out.push({ family: 'bad-cursor', label: 'real cursor, truncated', value: new WorldRef(base.name, (value) => String(value).slice(0, Math.max(1, String(value).length - 3))) });
    out.push({ family: 'bad-cursor', label: 'real cursor, reversed', value: new WorldRef(base.name, (value) => [...String(value)].reverse().join('')) });
    out.push({ family: 'bad-cursor', label: 'real cursor, repeated beyond the bound', value: new WorldRef(base.name, (value) => String(value).repeat(60)) });
    // Decoded, changed inside (each field mutated like any JSON value), encoded again.
    for (let index = 0; index < 8; index++) {
      const seed = rng.int(0, 0xffffffff);
      out.push({ family: 'bad-cursor', label: `real cursor with a mutated field (#${index}, seed ${seed})`, value: new WorldRef(base.name, (value) => mutateEncodedJson(String(value), seed)) });
    }
  }
  return out;
}

const bareContext = schemaContext({});

/** Decodes base64url JSON, applies one mutation chosen by `seed`, encodes again (or garbles the text). */
export function mutateEncodedJson(cursor: string, seed: number): string {
  const rng = createRng(seed);
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return `${cursor}${rng.pick(['!', '%', '=', '-'])}`;
  }
  const mutations = mutationsOf(bareContext, inferSchema(decoded), decoded, [], rng, 2).filter((mutation) => !(mutation.value instanceof WorldRef));
  const mutation = rng.pick(mutations);
  return base64url(toJsonText(applyMutation(decoded, mutation)));
}

export function queryCandidates(context: SchemaContext, operation: FuzzOperation, base: RequestTemplate, rng: Rng): Candidate[] {
  const out: Candidate[] = [];
  const withQuery = (query: QueryEntry[]): RequestTemplate => ({ ...base, query });
  for (const parameter of operation.queryParams) {
    const index = base.query.findIndex((entry) => entry.name === parameter.name);
    const current = base.query[index]?.value;
    out.push({ family: 'missing', label: `query ${parameter.name} absent`, template: withQuery(base.query.filter((entry) => entry.name !== parameter.name)) });
    for (const value of queryValues(context, parameter, current, rng)) {
      const query = base.query.map((entry, position) => (position === index ? { name: entry.name, value: value.value, raw: value.raw } : entry));
      // Prototype names as values of a query parameter are always sent: a sort or filter on a column
      // keyed `constructor` is where a lookup that is not own-property shows (issue 6, item 3).
      out.push({ family: value.family, label: `query ${parameter.name}: ${value.label}`, template: withQuery(query), priority: value.family === 'proto-value' });
    }
    out.push({ family: 'query', label: `query ${parameter.name} repeated`, template: withQuery([...base.query, { name: parameter.name, value: 'zz_second' }]) });
    out.push({ family: 'query', label: `query ${parameter.name}[] array notation`, template: withQuery([...base.query.filter((entry) => entry.name !== parameter.name), { name: `${parameter.name}[]`, value: 'x', raw: true }]) });
    out.push({ family: 'query', label: `query ${parameter.name}[a][b] nested notation`, template: withQuery([...base.query.filter((entry) => entry.name !== parameter.name), { name: `${parameter.name}[a][b]`, value: 'x', raw: true }]) });
  }
  out.push({ family: 'extra-field', label: 'query unknown parameter', template: withQuery([...base.query, { name: 'zz_unexpected', value: '1' }]) });
  for (const name of prototypeNames) {
    out.push({ family: 'proto-key', label: `query parameter named ${name}`, template: withQuery([...base.query, { name, value: 'x' }]), priority: true });
  }
  for (const name of ['__proto__[polluted]', 'constructor[prototype][polluted]', '__proto__.polluted', 'toString[]']) {
    out.push({ family: 'proto-key', label: `query parameter named ${name}`, template: withQuery([...base.query, { name, value: '1', raw: true }]), priority: true });
  }
  out.push({ family: 'many-entries', label: 'query of 2,000 parameters', template: withQuery([...base.query, ...Array.from({ length: 2000 }, (_, index) => ({ name: `p${index}`, value: 'x' }))]) });
  out.push({ family: 'far-oversize', label: 'query value of 100,000 characters', template: withQuery([...base.query, { name: 'zz_long', value: longString(100_000) }]) });
  return out;
}

export function pathCandidates(context: SchemaContext, operation: FuzzOperation, base: RequestTemplate, rng: Rng): Candidate[] {
  const out: Candidate[] = [];
  for (const parameter of operation.pathParams) {
    const current = base.pathParams[parameter.name];
    const set = (value: unknown): RequestTemplate => ({ ...base, pathParams: { ...base.pathParams, [parameter.name]: value } });
    const own = current instanceof WorldRef ? current.name : null;
    for (const ref of foreignIds.filter((name) => name !== own)) {
      out.push({ family: 'bad-id', label: `path ${parameter.name}: existing id of another kind or member (${ref})`, template: set(new WorldRef(ref)) });
    }
    out.push({ family: 'bad-id', label: `path ${parameter.name}: random uuid`, template: set(randomUuid(rng)) });
    out.push({ family: 'bad-id', label: `path ${parameter.name}: nil uuid`, template: set('00000000-0000-0000-0000-000000000000') });
    for (const text of ['not-a-uuid', '0', '-1', '1.5', 'null', 'undefined']) out.push({ family: 'bad-id', label: `path ${parameter.name}: ${JSON.stringify(text)}`, template: set(text) });
    for (const name of prototypeNames) out.push({ family: 'proto-value', label: `path ${parameter.name}: prototype name ${name}`, template: set(name), priority: true });
    for (const mutation of mutationsOf(context, parameter.schema, current, [], rng, 0)) {
      if (typeof mutation.value === 'string' || mutation.value instanceof WorldRef) {
        out.push({ family: mutation.family, label: `path ${parameter.name}: ${mutation.label}`, template: set(mutation.value) });
      }
    }
    // Dot segments (`..`, `%2e%2e`) are raw-socket cases (raw-cases.ts): a fetch Request resolves them first.
    for (const text of ['%', '%FF', '%2F', '%00', 'a%20b', '%E0%A4%A']) {
      out.push({ family: 'encoding', label: `path ${parameter.name}: raw ${text}`, template: set(new RawSegment(text)) });
    }
  }
  return out;
}

export function headerCandidates(operation: FuzzOperation, base: RequestTemplate, rng: Rng): Candidate[] {
  const out: Candidate[] = [];
  const auth = (label: string, headers: Record<string, string>): Candidate => ({
    family: 'auth',
    label: `credential: ${label}`,
    template: base,
    credentialOverride: { headers },
  });
  out.push(
    auth('Bearer with no token', { authorization: 'Bearer' }),
    auth('Bearer with an empty token', { authorization: 'Bearer ' }),
    auth('Bearer with a random mk_ key', { authorization: `Bearer mk_${Buffer.from(Array.from({ length: 24 }, () => rng.int(0, 255))).toString('base64url')}` }),
    auth('Bearer of 10,000 characters', { authorization: `Bearer ${longString(10_000)}` }),
    auth('Basic scheme', { authorization: 'Basic Zm9vOmJhcg==' }),
    auth('two Bearer tokens', { authorization: 'Bearer mk_a, Bearer mk_b' }),
    auth('Bearer __proto__', { authorization: 'Bearer __proto__' }),
    auth('empty session cookie', { cookie: 'session=' }),
    auth('session cookie of 10,000 characters', { cookie: `session=${longString(10_000)}` }),
    auth('session cookie __proto__', { cookie: 'session=__proto__' }),
    auth('session cookie with a bad percent-encoding', { cookie: 'session=%E0%A4%A' }),
    auth('two session cookies', { cookie: 'session=a; session=b' }),
    auth('cookies named after Object.prototype', { cookie: '__proto__=x; constructor=y; toString=z' }),
    auth('latin-1 bytes in the cookie', { cookie: 'session=\u00ff\u00fe' }),
  );
  out.push({ family: 'headers', label: 'Accept-Language of 10,000 characters', template: { ...base, headers: { ...base.headers, 'accept-language': longString(10_000) } } });
  out.push({ family: 'headers', label: 'Accept: text/html only', template: { ...base, headers: { ...base.headers, accept: 'text/html' } } });
  if (operation.method !== 'GET') {
    out.push({ family: 'headers', label: 'Origin of another site', template: { ...base, headers: { ...base.headers, origin: 'http://attacker.example' } } });
    out.push({ family: 'headers', label: 'Origin null', template: { ...base, headers: { ...base.headers, origin: 'null' } } });
    out.push({ family: 'headers', label: 'Sec-Fetch-Site cross-site', template: { ...base, headers: { ...base.headers, 'sec-fetch-site': 'cross-site' } } });
    out.push({ family: 'headers', label: 'Origin of 10,000 characters', template: { ...base, headers: { ...base.headers, origin: `http://${longString(10_000)}` } } });
  }
  for (const parameter of operation.headerParams) {
    const set = (value: unknown): RequestTemplate => ({ ...base, headers: { ...base.headers, [parameter.name]: value } });
    const values: [string, unknown][] = [
      ['empty', ''],
      ['maxLength+1', longString((parameter.schema.maxLength ?? 200) + 1)],
      ['100,000 characters', longString(100_000)],
      ['a tab only', '\t'],
      ['latin-1 bytes', '\u00e9\u00ff'],
      ['prototype name', '__proto__'],
      ['reused with a different request', 'fuzz-reused-key'],
    ];
    for (const [label, value] of values) out.push({ family: 'headers', label: `header ${parameter.name}: ${label}`, template: set(value) });
  }
  return out;
}
