/**
 * The fuzz harness's own parts that decide a verdict or shape a request: if these were wrong, the
 * fuzz could pass while the application fails (or fail for no reason).
 */
import { describe, expect, it } from 'vitest';
import { checkAnswer } from './check';
import { applyMutation, mutationsOf, prototypeNames } from './mutations';
import { createRng } from './prng';
import { parseResponses } from './raw-http';
import { schemaContext } from './schema';
import { JsonString, materialize, objectOf, RawJson, toJsonText, WorldRef } from './values';

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const envelope = (code: string) => json({ error: { code, message: 'm', details: {} } });

describe('fuzz verdicts', () => {
  it.each([
    ['a 500 in the envelope', 500, 'application/json', envelope('internal.error'), 'server_error'],
    ['a 502 of any shape', 502, 'text/html', json('x'), 'server_error'],
    ['a 404 page in HTML', 404, 'text/html', json('not found'), 'not_json'],
    ['a bare 400 with no body', 400, null, new Uint8Array(), 'not_json'],
    ['an error that is not the envelope', 400, 'application/json', json({ message: 'bad' }), 'not_envelope'],
    ['an envelope with extra top-level fields', 400, 'application/json', json({ error: { code: 'request.bad_request', message: 'm', details: {} }, x: 1 }), 'not_envelope'],
    ['details that are not an object', 400, 'application/json', json({ error: { code: 'request.bad_request', message: 'm', details: [] } }), 'not_envelope'],
    ['a code outside the catalogue', 400, 'application/json', envelope('request.nope'), 'unknown_code'],
    ['a code whose status differs', 400, 'application/json', envelope('tables.not_found'), 'status_mismatch'],
    ['a code named after Object.prototype', 400, 'application/json', envelope('constructor'), 'unknown_code'],
    ['a redirect', 302, null, new Uint8Array(), 'unexpected_status'],
  ])('flags %s', (_label, status, contentType, bytes, kind) => {
    expect(checkAnswer({ status, contentType, bytes }).problem?.kind).toBe(kind);
  });

  it('accepts a catalogue error and a JSON success', () => {
    expect(checkAnswer({ status: 404, contentType: 'application/json; charset=utf-8', bytes: envelope('tables.not_found') })).toEqual({ code: 'tables.not_found', problem: null });
    expect(checkAnswer({ status: 200, contentType: 'application/json', bytes: json({ ok: true }) }, 'application/json').problem).toBeNull();
    expect(checkAnswer({ status: 200, contentType: 'text/csv; charset=utf-8', bytes: new Uint8Array([97]) }, 'text/csv').problem).toBeNull();
  });

  it('accepts a redirect only when the operation declares it', () => {
    const redirect = { status: 302, contentType: null, bytes: new Uint8Array() };
    expect(checkAnswer(redirect, undefined, true).problem).toBeNull();
    expect(checkAnswer(redirect).problem?.kind).toBe('unexpected_status');
  });

  it('flags a success whose body is not the declared media type', () => {
    expect(checkAnswer({ status: 200, contentType: 'text/plain', bytes: json({}) }, 'application/json').problem?.kind).toBe('bad_success_body');
  });
});

describe('fuzz values', () => {
  it('sends a key named __proto__ as a key, without touching a prototype', async () => {
    const value = objectOf([['__proto__', { polluted: true }], ['a', 1]]);
    const sent = await materialize(value, async () => null, new Set());
    expect(toJsonText(sent)).toBe('{"__proto__":{"polluted":true},"a":1}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('splices raw JSON and resolves world references at send time', async () => {
    const used = new Set<string>();
    const value = { id: new WorldRef('table.id', (id) => `${String(id)}!`), n: new RawJson('1e400'), f: new JsonString([{ a: 1 }]) };
    const sent = await materialize(value, async (name) => `<${name}>`, used);
    expect(toJsonText(sent)).toBe('{"id":"<table.id>!","n":1e400,"f":"[{\\"a\\":1}]"}');
    expect([...used]).toEqual(['table']);
  });

  it('derives the same mutations from the same seed, and every prototype name as a key of a map', () => {
    const context = schemaContext({});
    const schema = { type: 'object', properties: { cells: { type: 'object', additionalProperties: { type: 'string' } } }, required: ['cells'] };
    const base = { cells: { a: 'x' } };
    const labels = (seed: number) => mutationsOf(context, schema, base, [], createRng(seed)).map((mutation) => mutation.label);
    expect(labels(7)).toEqual(labels(7));
    const mapKeys = mutationsOf(context, schema, base, [], createRng(7)).filter((mutation) => mutation.family === 'proto-key' && mutation.pointer[0] === 'cells');
    expect(mapKeys.map((mutation) => mutation.pointer[1]).sort()).toEqual([...prototypeNames].sort());
    const withProto = applyMutation(base, mapKeys.find((mutation) => mutation.pointer[1] === '__proto__')!) as { cells: object };
    expect(Object.hasOwn(withProto.cells, '__proto__')).toBe(true);
  });
});

describe('fuzz routing and raw responses', () => {
  it('parses pipelined, chunked and close-delimited responses', () => {
    const data = Buffer.from(
      'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok' +
        'HTTP/1.1 413 Payload Too Large\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n' +
        'HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n',
    );
    const responses = parseResponses(data, true);
    expect(responses.map((response) => [response.status, response.body.toString()])).toEqual([
      [200, 'ok'],
      [413, 'abc'],
      [400, ''],
    ]);
  });
});
