/**
 * What a step's expressions can read, and whether they can run away, read from the parsed expressions
 * (JSONata's AST; cached by source, since a workflow's parameters repeat run after run).
 *
 * Scope: a step should not copy every upstream node's data (each up to 256 KB) to the sandbox thread
 * when it reads one field. Conservatively: anything that could reach the scope other than by name
 * (`$`, `$$`, `*`, `**`, `%`, `$eval`, a built-in taking the context as its argument, a partial
 * application, a built-in passed around as a value) means the whole scope is sent. Otherwise `trigger`
 * and `input` are sent when their name appears anywhere; of `nodes`, the nodes whose id appears as a
 * name, or all of them when `nodes` itself is used as a value (`$keys(nodes)`, `nodes.*`, `nodes[…]`).
 * Over-inclusion is harmless (a relative `trigger` inside a path); the analysis only has to never leave
 * out what a name could reach. `execution` and `now` always go.
 *
 * Inline: an expression made only of field paths (names, no filters), literals, arithmetic,
 * comparisons, `and`/`or`, `&`, `? :`, `in` and array/object constructors has no loop, call or
 * recursion: its cost is linear in the data it reads, which the step data bounds already limit. Such
 * expressions (most parameters: `{{ trigger.subject }}`, `Re: {{ trigger.subject }}`) are evaluated on
 * the calling thread, with the same bounds, and skip the trip to a thread.
 */
import jsonata from 'jsonata';
import { expressionPieces, type ExpressionScope, type ExpressionSite } from '..';

interface Needs {
  /** Something reads the scope in a way names do not tell: send it all. */
  everything: boolean;
  names: Set<string>;
  /** `nodes` used as a whole value. */
  allNodes: boolean;
  /** Bounded by the data it reads (see above): safe on the calling thread. */
  inline: boolean;
}

interface Node {
  type?: string;
  value?: unknown;
  steps?: Node[];
  arguments?: Node[];
  procedure?: Node;
  [key: string]: unknown;
}

/** Built-ins that take the context when their first argument is left out (signature `-`) and accept an object there. */
const contextTakers: Record<string, number> = { string: 1, keys: 1, spread: 1, boolean: 1, not: 1, clone: 1, number: 1, lookup: 2, each: 2, sift: 2 };
/** Built-ins that are fine with no argument at all. */
const argumentless = new Set(['now', 'millis', 'random']);
/** Path-step annotations that make a step more than a plain field name. */
const stepExtras = ['stages', 'predicate', 'focus', 'index', 'group', 'tuple', 'ancestor', 'keepArray'];

function isPlainName(step: Node | undefined): boolean {
  return step?.type === 'name' && !stepExtras.some((key) => Object.hasOwn(step, key));
}

/** Binary operators with no loop of their own (`..` builds a sequence; `~>` applies a function). */
const inlineOperators = new Set(['+', '-', '*', '/', '%', '=', '!=', '<', '<=', '>', '>=', 'and', 'or', '&', 'in']);

/** Whether `node` is made only of what an inline expression may hold (see the module's comment). */
function isInline(node: unknown): boolean {
  const stack: unknown[] = [node];
  while (stack.length > 0) {
    const item = stack.pop();
    if (Array.isArray(item)) {
      stack.push(...item);
      continue;
    }
    if (item === null || typeof item !== 'object') return false;
    const current = item as Node;
    // Filters, grouping, sorting and focus bindings loop over their input.
    if (['predicate', 'stages', 'group', 'focus', 'index', 'tuple', 'ancestor'].some((key) => Object.hasOwn(current, key))) return false;
    switch (current.type) {
      case 'string':
      case 'number':
      case 'value':
        break;
      case 'path':
        if (!(current.steps ?? []).every((step) => step.type === 'name')) return false;
        stack.push(...(current.steps ?? []));
        break;
      case 'name':
        break;
      case 'binary':
        if (!inlineOperators.has(current.value as string)) return false;
        stack.push(current.lhs, current.rhs);
        break;
      case 'unary':
        if (current.value === '-') stack.push(current.expression);
        else if (current.value === '[') stack.push(current.expressions ?? []);
        else if (current.value === '{') stack.push(current.lhs ?? []);
        else return false;
        break;
      case 'condition':
        stack.push(current.condition, current.then, ...(current.else === undefined ? [] : [current.else]));
        break;
      default:
        return false;
    }
  }
  return true;
}

function analyse(root: Node, needs: Needs): void {
  const stack: { node: unknown; asProcedure: boolean }[] = [{ node: root, asProcedure: false }];
  while (stack.length > 0 && !needs.everything) {
    const { node, asProcedure } = stack.pop()!;
    if (Array.isArray(node)) {
      for (const item of node) stack.push({ node: item, asProcedure: false });
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    const current = node as Node;
    switch (current.type) {
      case 'wildcard':
      case 'descendant':
      case 'parent':
      case 'partial':
        needs.everything = true;
        continue;
      case 'variable':
        // `$` and `$$` are the root at the top level; a context-taking built-in used as a value may be called with it.
        if (current.value === '' || current.value === '$' || (!asProcedure && typeof current.value === 'string' && current.value in contextTakers)) needs.everything = true;
        continue;
      case 'name':
        if (typeof current.value === 'string') needs.names.add(current.value);
        break;
      case 'function': {
        const name = current.procedure?.type === 'variable' ? current.procedure.value : null;
        const count = current.arguments?.length ?? 0;
        if (name === 'eval') needs.everything = true;
        else if (typeof name === 'string' && name in contextTakers && count < contextTakers[name]) needs.everything = true;
        else if (count === 0 && !(typeof name === 'string' && argumentless.has(name))) needs.everything = true;
        if (current.procedure) stack.push({ node: current.procedure, asProcedure: true });
        stack.push({ node: current.arguments ?? [], asProcedure: false });
        continue;
      }
      case 'path': {
        const steps = current.steps ?? [];
        steps.forEach((step, index) => {
          if (step.type === 'name' && step.value === 'nodes' && !(isPlainName(step) && isPlainName(steps[index + 1]))) needs.allNodes = true;
        });
        break;
      }
      default:
        break;
    }
    for (const [key, value] of Object.entries(current)) {
      if (key !== 'position' && key !== 'procedure' && value !== null && typeof value === 'object') stack.push({ node: value, asProcedure: false });
    }
  }
}

const cacheLimit = 2_000;
/** An inline expression's cost also follows its own size: long ones go to a thread all the same. */
const inlineMaxLength = 500;
const cache = new Map<string, Needs>();

/** What one expression source needs (cached: a workflow's parameters repeat run after run). */
function needsOf(source: string): Needs {
  const known = cache.get(source);
  if (known) return known;
  const needs: Needs = { everything: false, names: new Set(), allNodes: false, inline: false };
  try {
    const ast = jsonata(source).ast() as Node;
    analyse(ast, needs);
    needs.inline = isInline(ast);
  } catch {
    // It does not parse: the thread reports that; what it is sent does not matter, so err on the whole.
    needs.everything = true;
  }
  if (cache.size >= cacheLimit) cache.delete(cache.keys().next().value!);
  cache.set(source, needs);
  return needs;
}

/** Whether every expression of `sites` is bounded by the data it reads, so it may run on the calling thread. */
export function runsInline(sites: readonly ExpressionSite[]): boolean {
  return sites.every((site) => expressionPieces(site.text).every((piece) => piece.source.length <= inlineMaxLength && needsOf(piece.source).inline));
}

/** The scope cut down to what the expressions of `sites` can read. */
export function scopeNeededBy(sites: readonly ExpressionSite[], scope: ExpressionScope): Partial<ExpressionScope> {
  const names = new Set<string>();
  let allNodes = false;
  for (const site of sites) {
    for (const piece of expressionPieces(site.text)) {
      const needs = needsOf(piece.source);
      if (needs.everything) return scope;
      for (const name of needs.names) names.add(name);
      allNodes ||= needs.allNodes;
    }
  }
  const needed: Partial<ExpressionScope> = { execution: scope.execution, now: scope.now };
  if (names.has('trigger')) needed.trigger = scope.trigger;
  if (names.has('input')) needed.input = scope.input;
  if (names.has('nodes')) {
    const nodes = scope.nodes ?? {};
    needed.nodes = allNodes ? nodes : Object.fromEntries(Object.keys(nodes).filter((id) => names.has(id)).map((id) => [id, nodes[id]]));
  }
  return needed;
}
