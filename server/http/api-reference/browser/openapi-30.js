/* global window */
/**
 * The instance's OpenAPI 3.1 document, rewritten in the OpenAPI 3.0 dialect for Swagger UI only (the
 * reference page, ./reference.js). Swagger UI reads a 3.1 document through ApiDOM, which took 4-5 s of a
 * quiet machine's CPU to show this document's tags and about 2 s more to open an operation; its 3.0 path
 * shows them in 1.8-2.0 s and 0.6-0.7 s (Chromium, measured 2026-12-06). The document served at
 * /api/v1/openapi.json stays 3.1; what changes here is how the same schemas are spelled:
 * - `type: [T, 'null']` and `anyOf`/`oneOf` with `{type: 'null'}` become `nullable: true` (a `$ref` that
 *   may be null is wrapped in `allOf`, since 3.0 ignores a reference's siblings); several types become an
 *   `anyOf` of each;
 * - `const: v` becomes `enum: [v]`; numeric `exclusiveMinimum`/`exclusiveMaximum` become the bound and
 *   the 3.0 flag;
 * - keywords 3.0 lacks (`propertyNames`, `$schema`, `$id`) are left out.
 * Only Schema Objects are rewritten (a property may well be named `type` or `const`); the rest of the
 * document is copied as it is.
 */
(function exportConverter(root) {
  const mapsOfSchemas = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
  const listsOfSchemas = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
  const singleSchemas = ['items', 'additionalProperties', 'not', 'contains', 'if', 'then', 'else'];
  const droppedKeywords = ['propertyNames', '$schema', '$id'];

  function isObject(value) {
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  }

  /** Sets an own property whatever its name (`__proto__` included: a plain assignment would change the prototype). */
  function put(target, key, value) {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  }

  function mapValues(map, convert) {
    const out = {};
    for (const key of Object.keys(map)) put(out, key, convert(map[key]));
    return out;
  }

  function isNullSchema(schema) {
    return isObject(schema) && schema.type === 'null' && Object.keys(schema).length === 1;
  }

  function schema30(value) {
    if (!isObject(value)) return value;
    const out = {};
    for (const key of Object.keys(value)) {
      const inner = value[key];
      if (droppedKeywords.includes(key)) continue;
      if (mapsOfSchemas.includes(key) && isObject(inner)) put(out, key, mapValues(inner, schema30));
      else if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(inner) && inner.some(isNullSchema)) {
        // Read before the alternatives are rewritten (a lone `{type: 'null'}` would no longer look like one).
        out.nullable = true;
        put(out, key, inner.filter((schema) => !isNullSchema(schema)).map(schema30));
      } else if (listsOfSchemas.includes(key) && Array.isArray(inner)) put(out, key, inner.map(schema30));
      else if (singleSchemas.includes(key) && isObject(inner)) put(out, key, schema30(inner));
      else if (key === 'items' && Array.isArray(inner)) put(out, key, { anyOf: inner.map(schema30) });
      else put(out, key, inner);
    }
    if (Array.isArray(out.prefixItems)) {
      if (out.items === undefined) out.items = { anyOf: out.prefixItems };
      delete out.prefixItems;
    }
    if (Array.isArray(out.type)) {
      const types = out.type.filter((type) => type !== 'null');
      if (types.length < out.type.length) out.nullable = true;
      delete out.type;
      const union = types.map((type) => ({ type }));
      if (types.length === 1) out.type = types[0];
      // Beside an anyOf of its own, the union must hold as well as it: both go under allOf.
      else if (types.length > 1 && out.anyOf) out.allOf = [...(out.allOf ?? []), { anyOf: union }];
      else if (types.length > 1) out.anyOf = union;
    } else if (out.type === 'null') {
      delete out.type;
      out.nullable = true;
      out.enum = [null];
    }
    // An alternative left alone once null was taken out of it is the schema itself.
    for (const key of ['anyOf', 'oneOf']) {
      if (!out.nullable || !Array.isArray(out[key]) || out[key].length !== 1) continue;
      const [only] = out[key];
      delete out[key];
      if (isObject(only) && only.$ref) out.allOf = [...(out.allOf ?? []), only];
      else for (const name of Object.keys(only)) if (!Object.hasOwn(out, name)) put(out, name, only[name]);
    }
    if (Object.hasOwn(out, 'const')) {
      out.enum = [out.const];
      delete out.const;
    }
    // A numeric exclusive bound beside an inclusive one: the tighter of the two is the schema's bound.
    if (typeof out.exclusiveMinimum === 'number') {
      if (typeof out.minimum === 'number' && out.minimum > out.exclusiveMinimum) delete out.exclusiveMinimum;
      else Object.assign(out, { minimum: out.exclusiveMinimum, exclusiveMinimum: true });
    }
    if (typeof out.exclusiveMaximum === 'number') {
      if (typeof out.maximum === 'number' && out.maximum < out.exclusiveMaximum) delete out.exclusiveMaximum;
      else Object.assign(out, { maximum: out.exclusiveMaximum, exclusiveMaximum: true });
    }
    return out;
  }

  /** Copies a part of the document, rewriting every `schema` in it and, under components, every schema. */
  function part30(value, parentKey) {
    if (Array.isArray(value)) return value.map((inner) => part30(inner, parentKey));
    if (!isObject(value)) return value;
    const out = {};
    for (const key of Object.keys(value)) {
      const inner = value[key];
      // Examples and extensions are data, whatever keys they hold.
      if (key === 'example' || key === 'examples' || key.startsWith('x-')) put(out, key, inner);
      else if (key === 'schema') put(out, key, schema30(inner));
      else if (key === 'schemas' && parentKey === 'components' && isObject(inner)) put(out, key, mapValues(inner, schema30));
      else put(out, key, part30(inner, key));
    }
    return out;
  }

  /** The document as Swagger UI's OpenAPI 3.0 path reads it; a document that is not 3.1 is given back as it is. */
  function forSwaggerUi(description) {
    if (!isObject(description) || typeof description.openapi !== 'string' || !description.openapi.startsWith('3.1')) return description;
    const converted = part30(description, '');
    converted.openapi = '3.0.3';
    delete converted.jsonSchemaDialect;
    delete converted.webhooks;
    return converted;
  }

  root.mailflowReference = { ...(root.mailflowReference ?? {}), forSwaggerUi };
})(typeof window === 'undefined' ? globalThis : window);
