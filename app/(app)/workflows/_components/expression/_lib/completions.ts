/**
 * Autocomplete inside `{{ … }}`: the field paths of the sample scope (`trigger.*`, `input.*`,
 * `nodes.<id>.*`, `execution.*`, `now`), walking nested keys after each dot (through lists, as
 * JSONata maps over them), and JSONata's functions after a `$`. Keys come from the sample data (the
 * last test run, pins) and from the shapes known without a run (a mail trigger's fields, from its
 * node type's output schema). Pure: the editor's completion source calls it with the text before
 * the cursor.
 */
import { schemaChild, schemaEntries, scopeSchema, type JsonSchemaLike } from './known-fields';
import { completeScope, type SampleScope } from './preview';

export interface PathCompletion {
  label: string;
  /** What is inserted (a key that is not a JSONata name is written in backticks). */
  apply: string;
  /** The value's type and a glimpse of it. */
  detail: string;
  type: 'property' | 'function' | 'variable';
}

export interface CompletionResult {
  /** Where the replaced word starts (in the text given). */
  from: number;
  options: PathCompletion[];
}

export const scopeRoots = ['trigger', 'input', 'nodes', 'execution', 'now'] as const;

/** JSONata's built-in functions most used in parameters. */
export const jsonataFunctions = [
  'string', 'length', 'substring', 'substringBefore', 'substringAfter', 'uppercase', 'lowercase', 'trim', 'pad', 'contains',
  'split', 'join', 'match', 'replace', 'number', 'abs', 'floor', 'ceil', 'round', 'sum', 'max', 'min', 'average', 'boolean',
  'not', 'exists', 'count', 'append', 'sort', 'reverse', 'distinct', 'keys', 'lookup', 'merge', 'each', 'filter', 'map',
  'reduce', 'now', 'millis', 'fromMillis', 'toMillis', 'type', 'formatNumber', 'base64encode', 'base64decode',
] as const;

const identifier = /^[A-Za-z_][\w]*$/;
const maxOptions = 200;

/** Whether `position` in `text` is inside an unclosed `{{` (the start of the piece's source, or -1). */
export function openPieceStart(text: string, position: number): number {
  const before = text.slice(0, position);
  const open = before.lastIndexOf('{{');
  if (open < 0) return -1;
  return before.lastIndexOf('}}') > open ? -1 : open + 2;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `list (${value.length})`;
  if (typeof value === 'object') return 'object';
  if (typeof value === 'string') return value.length > 30 ? `"${value.slice(0, 30)}…"` : JSON.stringify(value);
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : typeof value;
}

/** The keys offered for a value: an object's own keys; for a list, the keys of its (first 20) objects. */
function keysOf(value: unknown): { key: string; sample: unknown }[] {
  if (Array.isArray(value)) {
    const seen = new Map<string, unknown>();
    for (const item of value.slice(0, 20)) {
      for (const entry of keysOf(item)) if (!seen.has(entry.key)) seen.set(entry.key, entry.sample);
    }
    return [...seen].map(([key, sample]) => ({ key, sample }));
  }
  if (value === null || typeof value !== 'object') return [];
  return Object.keys(value).map((key) => ({ key, sample: (value as Record<string, unknown>)[key] }));
}

function step(value: unknown, key: string): unknown {
  if (Array.isArray(value)) {
    const mapped = value.map((item) => step(item, key)).filter((item) => item !== undefined);
    return mapped.length === 0 ? undefined : mapped.flat();
  }
  if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
  return (value as Record<string, unknown>)[key];
}

/** A path segment as written in JSONata: a name, or a backticked key. */
function segmentText(key: string): string {
  return identifier.test(key) ? key : `\`${key.replace(/`/g, '')}\``;
}

/** Splits `trigger.from.`, `nodes.\`mail-1\`.subj` into the walked keys and the partial last word. */
function splitPath(source: string): { keys: string[]; partial: string; partialStart: number } | null {
  const match = /((?:(?:[A-Za-z_][\w]*|`[^`]*`)\.)*)(`[^`]*|[A-Za-z_][\w]*)?$/.exec(source);
  if (!match) return null;
  const start = match.index;
  // A path continuing something else (`$x.`, `).`, `].`) is not a scope path.
  const previous = source[start - 1];
  if (previous !== undefined && /[\w$.)\]`]/.test(previous)) return null;
  const keys = (match[1].match(/[A-Za-z_][\w]*|`[^`]*`/g) ?? []).map((key) => (key.startsWith('`') ? key.slice(1, -1) : key));
  const partial = match[2] ?? '';
  return { keys, partial: partial.startsWith('`') ? partial.slice(1) : partial, partialStart: start + match[1].length };
}

/**
 * The completions at the end of `before` (the text from the start of the field to the cursor), or
 * null outside `{{ }}` or where nothing is offered. `explicit`: asked for (Ctrl-Space) rather than typed.
 */
export function completePath(before: string, sample: SampleScope | null | undefined, explicit = false): CompletionResult | null {
  const pieceStart = openPieceStart(before, before.length);
  if (pieceStart < 0) return null;
  const source = before.slice(pieceStart);

  const fn = /\$([A-Za-z_]\w*)?$/.exec(source);
  if (fn) {
    const partial = fn[1] ?? '';
    return {
      from: before.length - partial.length - 1,
      options: jsonataFunctions
        .filter((name) => name.toLowerCase().startsWith(partial.toLowerCase()))
        .map((name) => ({ label: `$${name}`, apply: `$${name}(`, detail: 'function', type: 'function' as const })),
    };
  }

  const path = splitPath(source);
  if (!path) return null;
  const from = pieceStart + path.partialStart;
  const scope = completeScope(sample ?? {});
  let entries: { key: string; detail: string }[];
  if (path.keys.length === 0) {
    if (!explicit && path.partial === '' && !/[\s({[,:?&|=<>!+*/%-]$|^$/.test(source)) return null;
    entries = scopeRoots.map((key) => ({ key, detail: describe((scope as Record<string, unknown>)[key]) }));
  } else {
    let value: unknown = scope;
    let shape: JsonSchemaLike | undefined = scopeSchema(sample?.shapes);
    for (const key of path.keys) {
      value = value === undefined ? undefined : step(value, key);
      shape = schemaChild(shape, key);
      if (value === undefined && shape === undefined) return null;
    }
    // The data's keys first (with a glimpse of their values), then the keys only the shape knows.
    const fromData = keysOf(value).map((entry) => ({ key: entry.key, detail: describe(entry.sample) }));
    const seen = new Set(fromData.map((entry) => entry.key));
    entries = [...fromData, ...schemaEntries(shape).filter((entry) => !seen.has(entry.key))];
  }
  const partial = path.partial.toLowerCase();
  const options = entries
    .filter((entry) => entry.key.toLowerCase().startsWith(partial))
    .slice(0, maxOptions)
    .map((entry) => ({
      label: entry.key,
      apply: segmentText(entry.key),
      detail: entry.detail,
      type: path.keys.length === 0 ? ('variable' as const) : ('property' as const),
    }));
  return options.length > 0 ? { from, options } : null;
}
