/**
 * The expression language of node parameters: JSONata (a sandboxed query language: no access to
 * the host, no `eval`, `new Function` or `vm`), written in `{{ … }}`.
 *
 * - A string parameter that is exactly one `{{ expr }}` resolves to the expression's value (any type).
 * - A string with `{{ expr }}` pieces among text interpolates them as text.
 * - The expression sees `{ trigger, input, nodes, execution: {id, workflowId, simulated}, now }`
 *   (copied into plain objects without prototypes, so `constructor` and friends lead nowhere).
 * - Budgets (`budget.ts`): an expression is at most 5,000 characters, runs at most 250 ms and nests at
 *   most 500 evaluation frames (JSONata's own guardrails, checked on every evaluation step), builds
 *   sequences and arrays of at most 100,000 items and strings of at most 1,000,000 characters (`&` and
 *   the string built-ins included: `limits.ts`), and its result serialises to at most 1 MB. Regular
 *   expressions match in linear time (RE2JS through JSONata's `RegexEngine` option).
 *   Any breach, and any evaluation error, is NodeFailure `expression_error` (permanent) naming the
 *   parameter path.
 *
 * The engine never evaluates here on its own thread: `sandbox/` runs these same functions on worker
 * threads it can terminate (a built-in JSONata cannot interrupt, memory). ESLint keeps the in-process
 * evaluators (`resolveParams`, `resolveValueIn`, `evaluateExpression`) out of server and runner code.
 *
 * A piece cannot contain `}}` (write `} }` inside object constructors).
 *
 * Browser-safe (no Node-only API): the builder's live preview evaluates with these same functions.
 */
import jsonata from 'jsonata';
import { fail } from '../contract/failures';
import { expressionBudget } from './budget';
import { compileBounded, measureJson } from './limits';
import { JsonataRegexEngine } from './safe-regex';

export { expressionBudget };

export interface ExpressionScope {
  trigger: unknown;
  input: unknown;
  nodes: Record<string, unknown>;
  execution: { id: string; workflowId: string; simulated: boolean };
  now: string;
}

const piecePattern = /\{\{([\s\S]*?)\}\}/g;
const maxWalkDepth = 64;

/** Keys whose values are secrets: masked in the step's stored input. */
export const secretKeyPattern = /password|secret|token|authorization|api[-_]?key/i;
export const maskText = '••••';

export interface ExpressionPiece {
  source: string;
  start: number;
  end: number;
}

/** The `{{ … }}` pieces of a string, in order. */
export function expressionPieces(text: string): ExpressionPiece[] {
  const pieces: ExpressionPiece[] = [];
  for (const match of text.matchAll(piecePattern)) {
    pieces.push({ source: match[1].trim(), start: match.index, end: match.index + match[0].length });
  }
  return pieces;
}

/** Whether a value is a string holding at least one expression. */
export function hasExpression(value: unknown): value is string {
  return typeof value === 'string' && expressionPieces(value).length > 0;
}

/** The expression when the whole string (spaces around aside) is one `{{ expr }}`, else null. */
export function wholeExpression(text: string): string | null {
  const pieces = expressionPieces(text);
  if (pieces.length !== 1) return null;
  const [piece] = pieces;
  return text.slice(0, piece.start).trim() === '' && text.slice(piece.end).trim() === '' ? piece.source : null;
}

/** Why an expression does not compile, or null when it does. */
export function compileError(source: string): string | null {
  if (source.length === 0) return 'The expression is empty.';
  if (source.length > expressionBudget.maxLength) return `The expression is longer than ${expressionBudget.maxLength} characters.`;
  try {
    jsonata(source);
    return null;
  } catch (error) {
    return describeJsonataError(error);
  }
}

/** Messages can quote values (a 1 MB string in a type error): a failure keeps this much of one. */
const maxReasonChars = 500;

function describeJsonataError(error: unknown): string {
  if (error && typeof error === 'object') {
    const { message, position } = error as { message?: unknown; position?: unknown };
    if (typeof message === 'string') {
      const text = message.length > maxReasonChars ? `${message.slice(0, maxReasonChars)}…` : message;
      return typeof position === 'number' ? `${text} (at character ${position})` : text;
    }
  }
  return 'The expression is not valid.';
}

/** A deep copy of JSON-like data into objects without prototypes (bounded depth). */
export function plainData(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint' ? undefined : value;
  }
  if (value instanceof Date) return value.toISOString();
  if (depth > maxWalkDepth) return null;
  if (Array.isArray(value)) return value.map((item) => plainData(item, depth + 1));
  const copy: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    Object.defineProperty(copy, key, { value: plainData((value as Record<string, unknown>)[key], depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

const utf8 = new TextEncoder();

function utf8Length(text: string): number {
  return utf8.encode(text).length;
}

function expressionError(path: string, reason: string) {
  return fail.permanent('expression_error', { message: `Expression in ${path}: ${reason}`, details: { path } });
}

/** Plain JSON data (or a failure): functions and other non-data results are refused; size is bounded. */
function asData(result: unknown, path: string): unknown {
  if (result === undefined) return null;
  if (typeof result === 'function') throw expressionError(path, 'the result is a function, not data.');
  const tooLarge = () => expressionError(path, `the result is larger than ${expressionBudget.maxResultBytes} bytes.`);
  // Measured before it is serialised: JSON.stringify of a huge result would be the expensive step.
  if (measureJson(result, expressionBudget.maxResultBytes) > expressionBudget.maxResultBytes) throw tooLarge();
  let text: string | undefined;
  try {
    text = JSON.stringify(result);
  } catch {
    throw expressionError(path, 'the result is not JSON data.');
  }
  if (text === undefined) return null;
  if (utf8Length(text) > expressionBudget.maxResultBytes) throw tooLarge();
  return JSON.parse(text) as unknown;
}

const compileOptions: jsonata.JsonataOptions = {
  timeout: expressionBudget.timeoutMs,
  stack: expressionBudget.maxDepth,
  sequence: expressionBudget.maxSequence,
  RegexEngine: JsonataRegexEngine as unknown as RegExpConstructor,
};

/**
 * Compiled expressions by source, the most recently used last. A workflow evaluates the same few expressions on
 * every run, and compiling one (parsed twice, the bounds' functions bound to it) cost more than evaluating it
 * (issue 25 §1). Sharing one is safe: every evaluation gets a frame of its own (JSONata's `evaluate`), which is
 * where the guardrails, `$now` and `$millis` read their time, and the one change an evaluation makes to the tree
 * (limits.ts: `&` made the bounded concatenation) is the same every time. Bounded in count, an expression being at
 * most `maxLength` characters.
 */
const compiled = new Map<string, Promise<jsonata.Expression>>();
const maxCompiled = 200;
/**
 * And at most this many characters of source in all: a compiled tree is tens of times its source, and a member's
 * workflow could otherwise keep 200 expressions of the longest kind in every thread (typical ones are far shorter).
 */
const maxCompiledChars = 100_000;
let compiledChars = 0;

function forget(source: string): void {
  if (compiled.delete(source)) compiledChars -= source.length;
}

function compiledExpression(source: string, path: string): Promise<jsonata.Expression> {
  const known = compiled.get(source);
  if (known) {
    compiled.delete(source);
    compiled.set(source, known);
    return known;
  }
  const problem = compileError(source);
  if (problem) throw expressionError(path, problem);
  const expression = compileBounded(source, compileOptions);
  compiled.set(source, expression);
  compiledChars += source.length;
  while (compiled.size > maxCompiled || compiledChars > maxCompiledChars) forget(compiled.keys().next().value!);
  // A compilation that failed is not kept (it has no reason to: compileError above passed).
  expression.catch(() => forget(source));
  return expression;
}

/** Evaluates one expression against a scope already made plain (`plainData`). */
export async function evaluateExpression(source: string, plainScope: unknown, path: string): Promise<unknown> {
  const expression = compiledExpression(source, path);
  let result: unknown;
  try {
    result = await (await expression).evaluate(plainScope);
  } catch (error) {
    throw expressionError(path, describeJsonataError(error));
  }
  return asData(result, path);
}

function asText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/**
 * One parameter string resolved: a whole `{{ expr }}` gives the value, pieces among text the
 * interpolated text. `beforeEach` is called before each expression starts (the sandbox's watchdog
 * times each one).
 */
export async function resolveText(text: string, plainScope: unknown, path: string, beforeEach: () => void = () => {}): Promise<unknown> {
  const pieces = expressionPieces(text);
  if (pieces.length === 0) return text;
  const whole = wholeExpression(text);
  if (whole !== null) {
    beforeEach();
    return evaluateExpression(whole, plainScope, path);
  }
  let out = '';
  let at = 0;
  for (const piece of pieces) {
    beforeEach();
    out += text.slice(at, piece.start) + asText(await evaluateExpression(piece.source, plainScope, path));
    at = piece.end;
    if (out.length > expressionBudget.maxResultBytes) break;
  }
  out += text.slice(at);
  if (out.length > expressionBudget.maxResultBytes || utf8Length(out) > expressionBudget.maxResultBytes) {
    throw expressionError(path, `the text is larger than ${expressionBudget.maxResultBytes} bytes.`);
  }
  return out;
}

function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** Sets an own data property (a `__proto__` key stays plain data, never a prototype change). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A string of the parameters that holds expressions, and where it is. */
export interface ExpressionSite {
  path: string;
  text: string;
}

/**
 * The strings of `value` holding expressions, in evaluation order (depth first, keys in order).
 * A value nesting deeper than the walk allows is a permanent `invalid_parameter`.
 */
export function expressionSites(value: unknown, path = 'params'): ExpressionSite[] {
  const sites: ExpressionSite[] = [];
  const walk = (item: unknown, at: string, depth: number): void => {
    if (typeof item === 'string') {
      if (hasExpression(item)) sites.push({ path: at, text: item });
      return;
    }
    if (item === null || typeof item !== 'object') return;
    if (depth > maxWalkDepth) throw fail.permanent('invalid_parameter', { message: `${at} nests too deeply.`, details: { path: at } });
    if (Array.isArray(item)) {
      item.forEach((entry, index) => walk(entry, childPath(at, index), depth + 1));
      return;
    }
    for (const key of Object.keys(item)) {
      if (Object.hasOwn(item, key)) walk((item as Record<string, unknown>)[key], childPath(at, key), depth + 1);
    }
  };
  walk(value, path, 0);
  return sites;
}

/**
 * A copy of `value` in which the strings `expressionSites` found are replaced, in the same order, by
 * `resolved` (plain objects and arrays; a `__proto__` key stays plain data).
 */
export function withResolvedSites(value: unknown, resolved: readonly unknown[]): unknown {
  let next = 0;
  const copy = (item: unknown): unknown => {
    if (typeof item === 'string') return hasExpression(item) ? resolved[next++] : item;
    if (item === null || typeof item !== 'object') return item;
    if (Array.isArray(item)) return item.map(copy);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(item)) {
      if (Object.hasOwn(item, key)) setOwn(out, key, copy((item as Record<string, unknown>)[key]));
    }
    return out;
  };
  return copy(value);
}

async function resolveInProcess(value: unknown, plainScope: unknown, path: string): Promise<unknown> {
  const sites = expressionSites(value, path);
  const resolved: unknown[] = [];
  for (const site of sites) resolved.push(await resolveText(site.text, plainScope, site.path));
  return withResolvedSites(value, resolved);
}

/**
 * One value resolved the way a step's parameters are (a whole-`{{ }}` string gives the value, a mixed
 * string the interpolated text; objects and lists deeply), against a scope made plain here. For
 * previews: a failure is a NodeFailure `expression_error` whose message names `path`.
 */
export async function resolveValueIn(value: unknown, scope: unknown, path = 'params'): Promise<unknown> {
  return resolveInProcess(value, plainData(scope), path);
}

/** A copy of resolved params with secret-looking values masked (keys, and `{name, value}` pairs). */
export function maskSecrets(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || depth > maxWalkDepth) return value;
  if (Array.isArray(value)) return value.map((item) => maskSecrets(item, depth + 1));
  const record = value as Record<string, unknown>;
  const pairName = typeof record.name === 'string' && Object.hasOwn(record, 'name') ? record.name : null;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    const secret = secretKeyPattern.test(key) || (key === 'value' && pairName !== null && secretKeyPattern.test(pairName));
    setOwn(out, key, secret && record[key] !== null && record[key] !== undefined && record[key] !== '' ? maskText : maskSecrets(record[key], depth + 1));
  }
  return out;
}

/**
 * Resolves every expression in `params` (deeply) against the scope, on this thread. `value`: the
 * params to run with; `masked`: the same with secrets masked, for the step's stored `input`. The
 * engine resolves through `sandbox/` instead (same result, off its event loop).
 */
export async function resolveParams(params: unknown, scope: ExpressionScope): Promise<{ value: unknown; masked: unknown }> {
  const value = await resolveInProcess(params, plainData(scope), 'params');
  return { value, masked: maskSecrets(value) };
}
