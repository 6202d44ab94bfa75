/**
 * The reference page's rewrite of the 3.1 document into Swagger UI's faster 3.0 dialect
 * (browser/openapi-30.js): run as the browser runs it (the file's own text, in a context of its own), on
 * schemas made for each rule and on the instance's whole document.
 */
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../plain/routes';

type Json = Record<string, unknown>;

function loadConverter(): (description: unknown) => Json {
  const window: { mailflowReference?: { forSwaggerUi: (description: unknown) => Json } } = {};
  runInNewContext(readFileSync(new URL('./browser/openapi-30.js', import.meta.url), 'utf8'), { window });
  return window.mailflowReference!.forSwaggerUi;
}

const forSwaggerUi = loadConverter();

/** A 3.1 document whose one response is `schema`, and the converted schema back. */
function converted(schema: unknown, components: Json = {}): { schema: unknown; document: Json } {
  const document = forSwaggerUi({
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: { '/x': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } } } } },
    components: { schemas: components },
  });
  const paths = document.paths as { '/x': { get: { responses: { '200': { content: { 'application/json': { schema: unknown } } } } } } };
  return { schema: paths['/x'].get.responses['200'].content['application/json'].schema, document };
}

/** Every Schema Object-looking value reachable in the document, with where it is. */
function* everyObject(value: unknown, at = '$'): Generator<[string, Json]> {
  if (Array.isArray(value)) {
    for (const [index, inner] of value.entries()) yield* everyObject(inner, `${at}[${index}]`);
  } else if (value !== null && typeof value === 'object') {
    yield [at, value as Json];
    for (const [key, inner] of Object.entries(value)) yield* everyObject(inner, `${at}.${key}`);
  }
}

describe('the API reference hands Swagger UI the document in the OpenAPI 3.0 dialect', () => {
  it('spells a nullable type as 3.0 does, and several types as an anyOf', () => {
    expect(converted({ type: ['string', 'null'], maxLength: 3 }).schema).toEqual({ type: 'string', maxLength: 3, nullable: true });
    expect(converted({ type: ['string', 'integer'] }).schema).toEqual({ anyOf: [{ type: 'string' }, { type: 'integer' }] });
    expect(converted({ type: ['string', 'integer'], anyOf: [{ minLength: 1 }, { minimum: 1 }] }).schema).toEqual({
      anyOf: [{ minLength: 1 }, { minimum: 1 }],
      allOf: [{ anyOf: [{ type: 'string' }, { type: 'integer' }] }],
    });
    expect(converted({ type: 'null' }).schema).toEqual({ nullable: true, enum: [null] });
  });

  it('turns an anyOf with null into nullable, wrapping a reference in allOf (3.0 ignores a reference’s siblings)', () => {
    expect(converted({ anyOf: [{ $ref: '#/components/schemas/A' }, { type: 'null' }], description: 'd' }).schema).toEqual({
      description: 'd',
      nullable: true,
      allOf: [{ $ref: '#/components/schemas/A' }],
    });
    expect(converted({ anyOf: [{ type: 'string', format: 'uuid' }, { type: 'null' }], description: 'd' }).schema).toEqual({
      type: 'string',
      format: 'uuid',
      description: 'd',
      nullable: true,
    });
    expect(converted({ oneOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] }).schema).toEqual({
      oneOf: [{ type: 'string' }, { type: 'integer' }],
      nullable: true,
    });
  });

  it('turns const into a one-value enum and numeric exclusive bounds into the bound and its flag', () => {
    expect(converted({ const: 'done' }).schema).toEqual({ enum: ['done'] });
    expect(converted({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 }).schema).toEqual({
      type: 'number',
      minimum: 0,
      exclusiveMinimum: true,
      maximum: 1,
      exclusiveMaximum: true,
    });
    // Beside an inclusive bound, the tighter one is kept.
    expect(converted({ type: 'integer', minimum: 5, exclusiveMinimum: 0, maximum: 10, exclusiveMaximum: 10 }).schema).toEqual({
      type: 'integer',
      minimum: 5,
      maximum: 10,
      exclusiveMaximum: true,
    });
    expect(converted({ type: 'object', propertyNames: { pattern: '^a' }, $schema: 'x' }).schema).toEqual({ type: 'object' });
  });

  it('rewrites schemas at every depth, and only schemas: properties named type or const, examples and extensions stay as they are', () => {
    const { schema, document } = converted(
      {
        type: 'object',
        properties: {
          type: { type: ['string', 'null'] },
          const: { const: 1 },
          list: { type: 'array', items: { anyOf: [{ type: 'integer' }, { type: 'null' }] } },
          map: { type: 'object', additionalProperties: { type: ['boolean', 'null'] } },
        },
        example: { type: ['kept', 'null'], const: 'kept' },
        'x-error-codes': { const: 'kept' },
      },
      { Named: { type: ['string', 'null'] } },
    );
    expect(schema).toEqual({
      type: 'object',
      properties: {
        type: { type: 'string', nullable: true },
        const: { enum: [1] },
        list: { type: 'array', items: { type: 'integer', nullable: true } },
        map: { type: 'object', additionalProperties: { type: 'boolean', nullable: true } },
      },
      example: { type: ['kept', 'null'], const: 'kept' },
      'x-error-codes': { const: 'kept' },
    });
    expect((document.components as { schemas: Json }).schemas.Named).toEqual({ type: 'string', nullable: true });
    expect(document.openapi).toBe('3.0.3');
  });

  it('keeps a property named __proto__ as a property, without changing any object’s prototype', () => {
    const { schema } = converted(JSON.parse('{"type":"object","properties":{"__proto__":{"type":["string","null"]}}}'));
    const properties = (schema as { properties: Json }).properties;
    expect(Object.getPrototypeOf(properties)).not.toBeNull();
    expect(Object.hasOwn(properties, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(properties, '__proto__')!.value).toEqual({ type: 'string', nullable: true });
    expect(({} as Json).type).toBeUndefined();
  });

  it('gives back a document that is not 3.1 as it is', () => {
    const older = { openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {} };
    expect(forSwaggerUi(older)).toBe(older);
  });

  it.each(['en', 'fr'] as const)('rewrites the instance’s own %s document: the same operations, no 3.1 keyword left in a schema, every reference resolving', (language) => {
    const original = openApiDocument(language) as unknown as Json;
    const document = forSwaggerUi(JSON.parse(JSON.stringify(original)));
    expect(document.openapi).toBe('3.0.3');

    const operations = (paths: unknown) =>
      Object.entries(paths as Record<string, Record<string, { operationId?: string; summary?: string; tags?: string[] }>>).flatMap(([path, item]) =>
        Object.entries(item).map(([method, operation]) => [path, method, operation.operationId, operation.summary, operation.tags]),
      );
    expect(operations(document.paths)).toEqual(operations(original.paths));

    const left: string[] = [];
    const references = new Set<string>();
    for (const [at, object] of everyObject({ paths: document.paths, components: document.components })) {
      if (at.includes('.example') || at.includes('.x-')) continue;
      if (typeof object.$ref === 'string') references.add(object.$ref);
      const inSchema = at.includes('.schema') || at.includes('.schemas.');
      if (!inSchema) continue;
      const onlyNull = Array.isArray(object.enum) && object.enum.length === 1 && object.enum[0] === null;
      if (onlyNull || Array.isArray(object.type) || object.type === 'null' || typeof object.exclusiveMinimum === 'number' || typeof object.exclusiveMaximum === 'number') left.push(at);
      if (at.endsWith('.properties')) continue;
      if (Object.hasOwn(object, 'const') || Object.hasOwn(object, 'propertyNames') || Object.hasOwn(object, 'prefixItems')) left.push(at);
    }
    expect(left).toEqual([]);
    expect(references.size).toBeGreaterThan(0);
    for (const reference of references) {
      const target = reference
        .replace(/^#\//, '')
        .split('/')
        .reduce<unknown>((node, key) => (node as Json | undefined)?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], document);
      expect(target, reference).toBeDefined();
    }
  });
});
