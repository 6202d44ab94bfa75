/**
 * The part of a step's scope its expressions can read, so a step does not copy every upstream node's
 * data (each up to 256 KB) to the sandbox thread when it reads one field. Read from the parsed
 * expressions (JSONata's AST), conservatively: anything that could reach the scope other than by
 * name (`$`, `$$`, `*`, `**`, `%`, `$eval`, a built-in taking the context as its argument, a partial
 * application, a built-in passed around as a value) means the whole scope is sent.
 *
 * Otherwise: `trigger` and `input` are sent when their name appears anywhere; of `nodes`, the nodes
 * whose id appears as a name, or all of them when `nodes` itself is used as a value (`$keys(nodes)`,
 * `nodes.*`, `nodes[…]`). Over-inclusion is harmless (a relative `trigger` inside a path); the
 * analysis only has to never leave out what a name could reach. `execution` and `now` always go.
 */
import jsonata from 'jsonata';
import { expressionPieces, type ExpressionScope, type ExpressionSite } from '..';

interface Needs {
  /** Something reads the scope in a way names do not tell: send it all. */
  everything: boolean;
  names: Set<string>;
  /** `nodes` used as a whole value. */
  allNodes: boolean;
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
const cache = new Map<string, Needs>();

/** What one expression source needs (cached: a workflow's parameters repeat run after run). */
function needsOf(source: string): Needs {
  const known = cache.get(source);
  if (known) return known;
  const needs: Needs = { everything: false, names: new Set(), allNodes: false };
  try {
    analyse(jsonata(source).ast() as Node, needs);
  } catch {
    // It does not parse: the thread reports that; what it is sent does not matter, so err on the whole.
    needs.everything = true;
  }
  if (cache.size >= cacheLimit) cache.delete(cache.keys().next().value!);
  cache.set(source, needs);
  return needs;
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
