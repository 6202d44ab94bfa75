/**
 * What the builder knows of the data an expression reads, before and after test runs: sample values
 * (the last test run, pinned data) and shapes (JSON Schemas the node types declare for their output,
 * GET /api/v1/node-types `outputSchema`: a mail trigger's fields are known without a run). The
 * completion offers the union of both; the unknown-path check warns only where one of them is sure a
 * key is not there. Pure.
 */

export type JsonSchemaLike = Record<string, unknown>;

/** Shapes of the scope's parts (`trigger`, `input`, `nodes.<id>`), when the node types declare them. */
export interface ScopeShapes {
  trigger?: JsonSchemaLike | null;
  input?: JsonSchemaLike | null;
  nodes?: Record<string, JsonSchemaLike>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The schema and its `anyOf`/`oneOf` members (a nullable field is `anyOf: [X, null]`). */
function branches(schema: JsonSchemaLike): JsonSchemaLike[] {
  const members = [...(Array.isArray(schema.anyOf) ? schema.anyOf : []), ...(Array.isArray(schema.oneOf) ? schema.oneOf : [])].filter(isObject);
  return [schema, ...members.flatMap(branches)];
}

/** Through lists to their items: JSONata maps a path over a list's items. */
function itemsOf(schema: JsonSchemaLike): JsonSchemaLike[] {
  return branches(schema).flatMap((branch) => (isObject(branch.items) ? itemsOf(branch.items) : [branch]));
}

/** The schema of `key` under `schema`, or undefined when the schema does not name it. */
export function schemaChild(schema: JsonSchemaLike | null | undefined, key: string): JsonSchemaLike | undefined {
  if (!schema) return undefined;
  for (const branch of itemsOf(schema)) {
    if (isObject(branch.properties) && isObject(branch.properties[key])) return branch.properties[key] as JsonSchemaLike;
  }
  return undefined;
}

/** Whether a schema lists its keys and admits no other (`additionalProperties: false`, as strict objects). */
export function schemaIsClosed(schema: JsonSchemaLike): boolean {
  return itemsOf(schema).some((branch) => isObject(branch.properties) && branch.additionalProperties === false);
}

/** The keys a schema names, with a word about each (its type, its description). */
export function schemaEntries(schema: JsonSchemaLike | null | undefined): { key: string; detail: string }[] {
  if (!schema) return [];
  const seen = new Map<string, string>();
  for (const branch of itemsOf(schema)) {
    if (!isObject(branch.properties)) continue;
    for (const [key, child] of Object.entries(branch.properties)) {
      if (!seen.has(key) && isObject(child)) seen.set(key, schemaDetail(child));
    }
  }
  return [...seen].map(([key, detail]) => ({ key, detail }));
}

function schemaDetail(schema: JsonSchemaLike): string {
  const types = branches(schema)
    .map((branch) => branch.type)
    .flat()
    .filter((type): type is string => typeof type === 'string' && type !== 'null');
  const type = types[0] === 'array' ? 'list' : types[0] === 'object' ? 'object' : (types[0] ?? 'value');
  return typeof schema.description === 'string' ? `${type} · ${schema.description}` : type;
}

/** The whole scope's shape as one schema: `trigger`, `input`, `nodes.<id>`. */
export function scopeSchema(shapes: ScopeShapes | undefined): JsonSchemaLike | undefined {
  if (!shapes) return undefined;
  const properties: Record<string, JsonSchemaLike> = {};
  if (shapes.trigger) properties.trigger = shapes.trigger;
  if (shapes.input) properties.input = shapes.input;
  if (shapes.nodes && Object.keys(shapes.nodes).length > 0) properties.nodes = { type: 'object', properties: shapes.nodes };
  return { type: 'object', properties };
}

/** The scope paths an expression's source reads (`trigger.from.email`, ``nodes.`mail-1`.subject``), string literals left out. */
export function scopePathsIn(source: string): string[][] {
  const code = source.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, (literal) => ' '.repeat(literal.length));
  const paths: string[][] = [];
  for (const match of code.matchAll(/(?<![\w$.`])(trigger|input|nodes)((?:\.(?:[A-Za-z_]\w*|`[^`]*`))+)/g)) {
    const keys = (match[2].match(/[A-Za-z_]\w*|`[^`]*`/g) ?? []).map((key) => (key.startsWith('`') ? key.slice(1, -1) : key));
    paths.push([match[1], ...keys]);
  }
  return paths;
}

function step(value: unknown, key: string): unknown {
  if (Array.isArray(value)) {
    const mapped = value.map((item) => step(item, key)).filter((item) => item !== undefined);
    return mapped.length === 0 ? undefined : mapped.flat();
  }
  if (!isObject(value) || !Object.hasOwn(value, key)) return undefined;
  return value[key];
}

/** What is known about one root of the scope: its data (a run's, pinned), its shape, or both. */
export interface KnownPart {
  value?: unknown;
  schema?: JsonSchemaLike | null;
}

/**
 * Whether `keys` (below a known part) name something: `known`, `unknown` (the data or the shape is
 * sure the key is not there), or `unsure` (nothing says: free data, a value that is null in this run).
 */
export function pathStatus(part: KnownPart, keys: readonly string[]): 'known' | 'unknown' | 'unsure' {
  let value = part.value;
  let schema = part.schema ?? undefined;
  for (const key of keys) {
    const nextValue = step(value, key);
    const nextSchema = schemaChild(schema, key);
    if (nextValue === undefined && nextSchema === undefined) {
      const dataSaysNo = (isObject(value) || (Array.isArray(value) && value.some(isObject))) && !schema;
      const shapeSaysNo = schema !== undefined && schemaIsClosed(schema);
      return dataSaysNo || shapeSaysNo ? 'unknown' : 'unsure';
    }
    value = nextValue;
    schema = nextSchema;
  }
  return 'known';
}
