/**
 * What changed between two workflow graphs (a version and the draft, two versions): nodes added,
 * removed and changed (which fields, and every parameter leaf by its path), connections added and
 * removed, sticky notes added, removed and changed, pins added, removed and changed. Pure and
 * client-safe: graphs are read defensively, as the API returns them (`unknown` items), and defaults
 * the server fills on save (onError `fail`, not disabled, empty params, position 0,0, the note's
 * size and colour, a connection's `main` output and `data` kind) compare equal to their absence, so a
 * graph as stored and the same graph as the builder holds it show no difference.
 *
 * Terminology: a *node change* lists its `fields` (name, type@version, disabled, onError, retry,
 * timeoutMs, notes) and `params` (one entry per leaf that differs); `moved` is separate and minor (a
 * node only dragged around is a change the UI may fold away). User-chosen keys (parameter keys, pin
 * keys) are never used as keys of a plain object here: `__proto__` or `constructor` are keys like
 * any other.
 */

export interface NodeSummary {
  id: string;
  name: string;
  type: string;
  version: number;
}

export type NodeField = 'name' | 'type' | 'disabled' | 'onError' | 'retry' | 'timeoutMs' | 'notes';

export interface FieldChange {
  field: NodeField;
  /** `type` changes read `type@version`; an absent optional field (retry, timeoutMs, notes) is undefined. */
  before: unknown;
  after: unknown;
}

export type ValueChangeKind = 'added' | 'removed' | 'changed';

export interface ParamChange {
  /** Where, inside `params`: `fields[0].value`, `headers["X-Key"]`. */
  path: string;
  segments: (string | number)[];
  kind: ValueChangeKind;
  /** Undefined when `added`. */
  before: unknown;
  /** Undefined when `removed`. */
  after: unknown;
}

export interface NodeChange {
  id: string;
  before: NodeSummary;
  after: NodeSummary;
  fields: FieldChange[];
  params: ParamChange[];
  /** Only the position differs (or also it): minor. */
  moved: boolean;
}

export interface ConnectionRef {
  from: string;
  output: string;
  to: string;
  input?: string;
  /** `data` unless the connection says `service`. */
  kind: string;
  /** The names of the nodes at each end in the graph the connection belongs to (the id when unknown). */
  fromName: string;
  toName: string;
}

export interface NoteSummary {
  id: string;
  text: string;
  color: string;
}

export type NoteField = 'text' | 'color' | 'size';

export interface NoteChange {
  id: string;
  before: NoteSummary;
  after: NoteSummary;
  fields: NoteField[];
  moved: boolean;
}

export interface GraphDiff {
  nodes: { added: NodeSummary[]; removed: NodeSummary[]; changed: NodeChange[] };
  connections: { added: ConnectionRef[]; removed: ConnectionRef[] };
  notes: { added: NoteSummary[]; removed: NoteSummary[]; changed: NoteChange[] };
  pins: { added: string[]; removed: string[]; changed: string[] };
}

/** Deeper than this, two parameter values are compared whole (one change at that path). */
const maxDepth = 64;

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own property or undefined: never reads through the prototype (`constructor`, `toString`…). */
function own(record: Json, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function text(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : fallback;
}

function finite(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** Deep equality of JSON values; object key order does not matter. */
export function jsonEqual(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (depth > maxDepth * 4) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => jsonEqual(item, b[index], depth + 1));
  }
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) => Object.hasOwn(b, key) && jsonEqual(own(a as Json, key), own(b as Json, key), depth + 1));
}

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `a.b[0]["odd key"]`: identifiers dotted, indexes and other keys bracketed. */
export function formatPath(segments: readonly (string | number)[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (identifier.test(segment)) out += out ? `.${segment}` : segment;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

function pushChange(changes: ParamChange[], segments: (string | number)[], before: unknown, after: unknown) {
  const kind: ValueChangeKind = before === undefined ? 'added' : after === undefined ? 'removed' : 'changed';
  changes.push({ path: formatPath(segments), segments, kind, before, after });
}

/**
 * Every leaf where `before` and `after` differ, by a deep walk: objects key by key (keys of `before`
 * first, in their order, then keys only `after` has), arrays index by index (extra items added or
 * removed). A value that changes kind (object to string, array to object) is one change at its path.
 */
export function diffValues(before: unknown, after: unknown, segments: (string | number)[] = []): ParamChange[] {
  const changes: ParamChange[] = [];
  walk(before, after, segments, changes);
  return changes;
}

function walk(before: unknown, after: unknown, segments: (string | number)[], changes: ParamChange[]): void {
  if (before === after) return;
  const deep = segments.length >= maxDepth;
  if (!deep && Array.isArray(before) && Array.isArray(after)) {
    const length = Math.max(before.length, after.length);
    for (let index = 0; index < length; index++) walk(before[index], after[index], [...segments, index], changes);
    return;
  }
  if (!deep && isRecord(before) && isRecord(after)) {
    for (const key of Object.keys(before)) walk(own(before, key), own(after, key), [...segments, key], changes);
    for (const key of Object.keys(after)) if (!Object.hasOwn(before, key)) walk(undefined, own(after, key), [...segments, key], changes);
    return;
  }
  if (jsonEqual(before, after)) return;
  pushChange(changes, segments, before, after);
}

interface NormalNode extends NodeSummary {
  disabled: boolean;
  onError: string;
  retry: unknown;
  timeoutMs: unknown;
  notes: string | undefined;
  params: Json;
  position: { x: number; y: number };
}

function readNode(raw: Json & { id: string }): NormalNode {
  const position = isRecord(own(raw, 'position')) ? (own(raw, 'position') as Json) : {};
  const params = own(raw, 'params');
  const notes = own(raw, 'notes');
  const version = own(raw, 'version');
  return {
    id: raw.id,
    name: text(own(raw, 'name'), raw.id),
    type: text(own(raw, 'type')),
    version: typeof version === 'number' ? version : 0,
    disabled: own(raw, 'disabled') === true,
    onError: text(own(raw, 'onError'), 'fail'),
    retry: own(raw, 'retry'),
    timeoutMs: own(raw, 'timeoutMs'),
    notes: typeof notes === 'string' && notes !== '' ? notes : undefined,
    params: isRecord(params) ? params : {},
    position: { x: finite(own(position, 'x')), y: finite(own(position, 'y')) },
  };
}

function summary(node: NormalNode): NodeSummary {
  return { id: node.id, name: node.name, type: node.type, version: node.version };
}

/** Items of `graph[key]` that are objects with a string id, first of each id only, in order. */
function itemsById(graph: unknown, key: string): Map<string, Json & { id: string }> {
  const items = new Map<string, Json & { id: string }>();
  const list = isRecord(graph) ? own(graph, key) : undefined;
  for (const raw of Array.isArray(list) ? list : []) {
    if (!isRecord(raw)) continue;
    const id = own(raw, 'id');
    if (typeof id === 'string' && !items.has(id)) items.set(id, raw as Json & { id: string });
  }
  return items;
}

function diffNode(before: NormalNode, after: NormalNode): NodeChange | null {
  const fields: FieldChange[] = [];
  if (before.name !== after.name) fields.push({ field: 'name', before: before.name, after: after.name });
  if (before.type !== after.type || before.version !== after.version) {
    fields.push({ field: 'type', before: `${before.type}@${before.version}`, after: `${after.type}@${after.version}` });
  }
  for (const field of ['disabled', 'onError', 'retry', 'timeoutMs', 'notes'] as const) {
    if (!jsonEqual(before[field], after[field])) fields.push({ field, before: before[field], after: after[field] });
  }
  const params = diffValues(before.params, after.params);
  const moved = before.position.x !== after.position.x || before.position.y !== after.position.y;
  if (fields.length === 0 && params.length === 0 && !moved) return null;
  return { id: after.id, before: summary(before), after: summary(after), fields, params, moved };
}

function diffNodes(before: unknown, after: unknown): GraphDiff['nodes'] {
  const old = itemsById(before, 'nodes');
  const now = itemsById(after, 'nodes');
  const added: NodeSummary[] = [];
  const changed: NodeChange[] = [];
  for (const [id, raw] of now) {
    const previous = old.get(id);
    if (!previous) added.push(summary(readNode(raw)));
    else {
      const change = diffNode(readNode(previous), readNode(raw));
      if (change) changed.push(change);
    }
  }
  const removed = [...old].filter(([id]) => !now.has(id)).map(([, raw]) => summary(readNode(raw)));
  return { added, removed, changed };
}

function readConnections(graph: unknown): Map<string, ConnectionRef> {
  const names = new Map([...itemsById(graph, 'nodes')].map(([id, raw]) => [id, text(own(raw, 'name'), id) || id]));
  const connections = new Map<string, ConnectionRef>();
  const list = isRecord(graph) ? own(graph, 'connections') : undefined;
  for (const raw of Array.isArray(list) ? list : []) {
    if (!isRecord(raw)) continue;
    const from = own(raw, 'from');
    const to = own(raw, 'to');
    if (typeof from !== 'string' || typeof to !== 'string') continue;
    const input = own(raw, 'input');
    const connection: ConnectionRef = {
      from,
      output: text(own(raw, 'output'), 'main'),
      to,
      ...(typeof input === 'string' ? { input } : {}),
      kind: text(own(raw, 'kind'), 'data'),
      fromName: names.get(from) ?? from,
      toName: names.get(to) ?? to,
    };
    const key = JSON.stringify([connection.from, connection.output, connection.to, connection.input ?? null, connection.kind]);
    if (!connections.has(key)) connections.set(key, connection);
  }
  return connections;
}

function diffConnections(before: unknown, after: unknown): GraphDiff['connections'] {
  const old = readConnections(before);
  const now = readConnections(after);
  return {
    added: [...now].filter(([key]) => !old.has(key)).map(([, connection]) => connection),
    removed: [...old].filter(([key]) => !now.has(key)).map(([, connection]) => connection),
  };
}

interface NormalNote extends NoteSummary {
  size: { width: number; height: number };
  position: { x: number; y: number };
}

function readNote(raw: Json & { id: string }): NormalNote {
  const size = isRecord(own(raw, 'size')) ? (own(raw, 'size') as Json) : {};
  const position = isRecord(own(raw, 'position')) ? (own(raw, 'position') as Json) : {};
  const width = own(size, 'width');
  const height = own(size, 'height');
  return {
    id: raw.id,
    text: text(own(raw, 'text')),
    color: text(own(raw, 'color'), 'jaune'),
    size: { width: typeof width === 'number' ? width : 240, height: typeof height === 'number' ? height : 160 },
    position: { x: finite(own(position, 'x')), y: finite(own(position, 'y')) },
  };
}

const noteSummary = (note: NormalNote): NoteSummary => ({ id: note.id, text: note.text, color: note.color });

function diffNotes(before: unknown, after: unknown): GraphDiff['notes'] {
  const old = itemsById(before, 'notes');
  const now = itemsById(after, 'notes');
  const added: NoteSummary[] = [];
  const changed: NoteChange[] = [];
  for (const [id, raw] of now) {
    const note = readNote(raw);
    const previousRaw = old.get(id);
    if (!previousRaw) {
      added.push(noteSummary(note));
      continue;
    }
    const previous = readNote(previousRaw);
    const fields: NoteField[] = [];
    if (previous.text !== note.text) fields.push('text');
    if (previous.color !== note.color) fields.push('color');
    if (!jsonEqual(previous.size, note.size)) fields.push('size');
    const moved = !jsonEqual(previous.position, note.position);
    if (fields.length || moved) changed.push({ id, before: noteSummary(previous), after: noteSummary(note), fields, moved });
  }
  const removed = [...old].filter(([id]) => !now.has(id)).map(([, raw]) => noteSummary(readNote(raw)));
  return { added, removed, changed };
}

function readPins(graph: unknown): Map<string, unknown> {
  const pins = new Map<string, unknown>();
  const record = isRecord(graph) ? own(graph, 'pins') : undefined;
  if (isRecord(record)) for (const key of Object.keys(record)) pins.set(key, own(record, key));
  return pins;
}

function diffPins(before: unknown, after: unknown): GraphDiff['pins'] {
  const old = readPins(before);
  const now = readPins(after);
  return {
    added: [...now.keys()].filter((key) => !old.has(key)),
    removed: [...old.keys()].filter((key) => !now.has(key)),
    changed: [...now].filter(([key, pin]) => old.has(key) && !jsonEqual(old.get(key), pin)).map(([key]) => key),
  };
}

/** What turns `before` into `after`. Either may be null or malformed (read as an empty graph). */
export function diffGraphs(before: unknown, after: unknown): GraphDiff {
  return {
    nodes: diffNodes(before, after),
    connections: diffConnections(before, after),
    notes: diffNotes(before, after),
    pins: diffPins(before, after),
  };
}

/** How many differences, by kind; `moves` counts nodes and notes whose only change is their position. */
export function diffCounts(diff: GraphDiff) {
  const onlyMoved = (change: { moved: boolean; fields: unknown[] } & { params?: unknown[] }) =>
    change.moved && change.fields.length === 0 && (change.params?.length ?? 0) === 0;
  const moves = diff.nodes.changed.filter(onlyMoved).length + diff.notes.changed.filter(onlyMoved).length;
  const total =
    diff.nodes.added.length +
    diff.nodes.removed.length +
    diff.nodes.changed.length +
    diff.connections.added.length +
    diff.connections.removed.length +
    diff.notes.added.length +
    diff.notes.removed.length +
    diff.notes.changed.length +
    diff.pins.added.length +
    diff.pins.removed.length +
    diff.pins.changed.length;
  return { total, moves, significant: total - moves };
}

/** No difference at all (`ignoreMoves`: positions alone do not count). */
export function isEmptyDiff(diff: GraphDiff, options: { ignoreMoves?: boolean } = {}): boolean {
  const counts = diffCounts(diff);
  return (options.ignoreMoves ? counts.significant : counts.total) === 0;
}

/** A value for display: strings quoted, anything else as JSON, cut at `max` characters. */
export function previewValue(value: unknown, max = 160): string {
  if (value === undefined) return '';
  let shown: string;
  try {
    // JSON.stringify answers undefined for a function or a symbol, which JSON never holds.
    shown = JSON.stringify(value) ?? typeof value;
  } catch {
    shown = typeof value;
  }
  return shown.length > max ? `${shown.slice(0, max - 1)}…` : shown;
}
