/**
 * Size bounds inside JSONata, where its own guardrails do not reach. JSONata checks its time, depth
 * and sequence options only between evaluation steps; a built-in runs to its end. `&` builds rope
 * strings in O(1), so a few dozen doublings make a string of gigabytes that `$length`, `$pad` or
 * `JSON.stringify` then walk in one synchronous step. Here, on every compiled expression:
 *
 * - `&` is rewritten, when its node is first evaluated, into a call of a concatenation that refuses a
 *   result over `maxStringChars` (and measures an object operand before stringifying it). The rewrite
 *   happens in JSONata's evaluation-entry hook, so code parsed at run time by `$eval` gets it too.
 * - Every evaluation step's result is checked on exit: no string over `maxStringChars`, no array over
 *   `maxSequence` items (JSONata's `sequence` option covers only the sequences it builds itself).
 * - The built-ins that walk or build strings refuse, before doing any work, string arguments over
 *   `maxStringChars` (`.length` is O(1) even on a rope) and arguments whose result would be over it
 *   (`$pad` widths, `$join` totals, `$string`/`$clone` of large data, numbers in format pictures).
 * - `$eval` takes at most `maxLength` characters of source and nests at most `maxEvalNesting` deep;
 *   its code runs in the same environment, so the same hooks, time and depth budgets apply.
 *
 * A breach is an `ExpressionLimitError` (code `L0001`, its own message), thrown like JSONata's errors.
 * Browser-safe: the builder's preview compiles through here too.
 */
import jsonata from 'jsonata';
import { expressionBudget } from './budget';

type Focus = jsonata.Focus & { environment: Environment };
interface Environment {
  base?: object;
  timestamp?: Date | null;
}
interface JsonataFunction {
  _jsonata_function: true;
  implementation: (this: Focus, ...args: unknown[]) => unknown;
  signature?: unknown;
}
interface AstNode {
  type: string;
  value?: unknown;
  position?: number;
  lhs?: AstNode;
  rhs?: AstNode;
  procedure?: AstNode;
  arguments?: AstNode[];
}

const maxChars = expressionBudget.maxStringChars;
const countFormat = new Intl.NumberFormat('en-US');
const entryHook = Symbol.for('jsonata.__evaluate_entry');
const exitHook = Symbol.for('jsonata.__evaluate_exit');
/** A variable name JSONata's syntax cannot write (`$&` is `$` then `&`), so member code cannot shadow it. */
const concatName = '&';

/** A bound broken: thrown like JSONata's own errors (JSONata adds the position and the function's name). */
export class ExpressionLimitError extends Error {
  readonly code = 'L0001';
  constructor(message: string) {
    super(message);
    this.name = 'ExpressionLimitError';
  }
}

function limitError(message: string): ExpressionLimitError {
  return new ExpressionLimitError(message);
}

const tooLong = () => limitError(`A string would be longer than ${countFormat.format(maxChars)} characters.`);

/**
 * The characters `JSON.stringify(value)` would produce, give or take escapes, counted without
 * building it; counting stops once past `limit` (so the walk is O(limit) whatever the value).
 */
export function measureJson(value: unknown, limit: number, indent = 0): number {
  let total = 0;
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0 && total <= limit) {
    const { value: item, depth } = stack.pop()!;
    total += indent > 0 ? depth * indent + 1 : 0;
    if (typeof item === 'string') total += item.length + 2;
    else if (item === null || item === undefined || typeof item !== 'object') total += typeof item === 'number' ? 24 : 5;
    else if (Array.isArray(item)) {
      total += 2 + item.length;
      for (let index = 0; index < item.length && total <= limit; index += 1) stack.push({ value: item[index], depth: depth + 1 });
    } else {
      total += 2;
      for (const key of Object.keys(item)) {
        total += key.length + 4;
        if (total > limit) break;
        stack.push({ value: (item as Record<string, unknown>)[key], depth: depth + 1 });
      }
    }
  }
  return total;
}

function checkStrings(args: unknown[]): void {
  for (const arg of args) if (typeof arg === 'string' && arg.length > maxChars) throw tooLong();
}

function checkData(value: unknown, indent = 0): void {
  if (value !== null && typeof value === 'object' && measureJson(value, maxChars, indent) > maxChars) throw tooLong();
}

/** Format pictures pad to the numbers they hold (`[Y,999999999]`, mandatory digits). */
function checkPicture(picture: unknown): void {
  if (typeof picture !== 'string') return;
  for (const match of picture.matchAll(/\d+/g)) {
    if (Number(match[0]) > expressionBudget.maxPictureNumber) {
      throw limitError(`A number in a format picture is over ${countFormat.format(expressionBudget.maxPictureNumber)}.`);
    }
  }
}

/** Checks run before a built-in, on its validated arguments (context arguments included). */
const argumentChecks: Record<string, (args: unknown[]) => void> = {
  length: checkStrings,
  substring: checkStrings,
  substringBefore: checkStrings,
  substringAfter: checkStrings,
  uppercase: checkStrings,
  lowercase: checkStrings,
  trim: checkStrings,
  contains: checkStrings,
  split: checkStrings,
  match: checkStrings,
  replace: checkStrings,
  base64encode: checkStrings,
  base64decode: checkStrings,
  encodeUrlComponent: checkStrings,
  encodeUrl: checkStrings,
  decodeUrlComponent: checkStrings,
  decodeUrl: checkStrings,
  number: checkStrings,
  formatBase: checkStrings,
  formatNumber: (args) => {
    checkStrings(args);
    checkPicture(args[1]);
  },
  formatInteger: (args) => {
    checkStrings(args);
    checkPicture(args[1]);
  },
  parseInteger: (args) => {
    checkStrings(args);
    checkPicture(args[1]);
  },
  fromMillis: (args) => {
    checkStrings(args);
    checkPicture(args[1]);
  },
  toMillis: (args) => {
    checkStrings(args);
    checkPicture(args[1]);
  },
  pad: ([text, width, padding]) => {
    checkStrings([text, padding]);
    const unit = typeof padding === 'string' && padding.length > 0 ? padding.length : 1;
    // JSONata builds `|width|` copies of the padding before cutting them.
    if (typeof width === 'number' && Math.abs(width) * unit > maxChars) throw tooLong();
  },
  join: ([items, separator]) => {
    checkStrings([separator]);
    if (!Array.isArray(items)) return checkStrings([items]);
    let total = typeof separator === 'string' ? separator.length * Math.max(0, items.length - 1) : 0;
    for (const item of items) {
      total += typeof item === 'string' ? item.length : 0;
      if (total > maxChars) throw tooLong();
    }
  },
  string: ([value, prettify]) => checkData(value, prettify === true ? 2 : 0),
  clone: ([value]) => checkData(value),
};

/** The built-ins wrapped here, as JSONata defines them (their signatures are kept). */
const wrappedNames = [...Object.keys(argumentChecks), 'eval'];

let originals: Promise<Map<string, JsonataFunction>> | null = null;

/** JSONata's own function objects, read once (evaluating `$name` gives the built-in itself). */
function loadOriginals(): Promise<Map<string, JsonataFunction>> {
  originals ??= (async () => {
    const found = new Map<string, JsonataFunction>();
    for (const name of wrappedNames) {
      const definition = (await jsonata(`$${name}`).evaluate(undefined)) as JsonataFunction | undefined;
      if (!definition?._jsonata_function) throw new Error(`JSONata has no built-in $${name}.`);
      found.set(name, definition);
    }
    return found;
  })();
  return originals;
}

function concatenation(stringOf: JsonataFunction) {
  const text = (focus: Focus, value: unknown): string => {
    if (value === undefined) return '';
    if (typeof value === 'string') return value;
    checkData(value);
    return stringOf.implementation.call(focus, value) as string;
  };
  return function concat(this: Focus, left: unknown, right: unknown): string {
    const start = text(this, left);
    const end = text(this, right);
    if (start.length + end.length > maxChars) throw tooLong();
    return start + end;
  };
}

/** `$eval` levels in progress, per evaluation (JSONata's execution environment, `environment.base`). */
const evalNesting = new WeakMap<object, number>();

function boundedEval(original: JsonataFunction) {
  return async function evalBounded(this: Focus, source: unknown, focus: unknown): Promise<unknown> {
    if (typeof source === 'string' && source.length > expressionBudget.maxLength) {
      throw limitError(`The expression given to $eval is longer than ${countFormat.format(expressionBudget.maxLength)} characters.`);
    }
    const key = this.environment.base ?? this.environment;
    const level = (evalNesting.get(key) ?? 0) + 1;
    if (level > expressionBudget.maxEvalNesting) throw limitError(`$eval nests deeper than ${expressionBudget.maxEvalNesting} levels.`);
    evalNesting.set(key, level);
    try {
      return await original.implementation.call(this, source, focus);
    } finally {
      evalNesting.set(key, level - 1);
    }
  };
}

function rewriteConcatenation(node: AstNode): void {
  if (node.type !== 'binary' || node.value !== '&') return;
  const { lhs, rhs } = node;
  node.type = 'function';
  node.value = '(';
  node.procedure = { type: 'variable', value: concatName, position: node.position };
  node.arguments = [lhs!, rhs!];
  delete node.lhs;
  delete node.rhs;
}

function checkResult(_node: AstNode, _input: unknown, _environment: unknown, result: unknown): void {
  if (typeof result === 'string') {
    if (result.length > maxChars) throw tooLong();
  } else if (Array.isArray(result) && result.length > expressionBudget.maxSequence) {
    throw limitError(`A sequence would hold more than ${countFormat.format(expressionBudget.maxSequence)} items.`);
  }
}

/**
 * A compiled expression with JSONata's guardrails (time, depth, sequence, the linear-time regex
 * engine given as `options`) and the bounds above. Throws JSONata's error when `source` does not parse.
 */
export async function compileBounded(source: string, options: jsonata.JsonataOptions): Promise<jsonata.Expression> {
  const builtIns = await loadOriginals();
  const expression = jsonata(source, options);
  for (const [name, check] of Object.entries(argumentChecks)) {
    const original = builtIns.get(name)!;
    const wrapped: JsonataFunction = {
      _jsonata_function: true,
      signature: original.signature,
      implementation(...args: unknown[]) {
        check(args);
        return original.implementation.apply(this, args);
      },
    };
    expression.assign(name, wrapped);
  }
  const evalOriginal = builtIns.get('eval')!;
  expression.assign('eval', { _jsonata_function: true, signature: evalOriginal.signature, implementation: boundedEval(evalOriginal) });
  // `$now` is bound per expression; same picture bounds, then JSONata's own formatting of the same instant.
  const fromMillis = builtIns.get('fromMillis')!;
  expression.registerFunction(
    'now',
    function now(this: Focus, picture?: string, timezone?: string) {
      checkStrings([picture, timezone]);
      checkPicture(picture);
      const instant = this.environment.timestamp instanceof Date ? this.environment.timestamp.getTime() : Date.now();
      return fromMillis.implementation.call(this, instant, picture, timezone);
    },
    '<s?s?:s>',
  );
  // `$millis` too: JSONata's own reads a time kept per compiled expression, which evaluations sharing it would
  // overwrite for each other (index.ts keeps compiled expressions); the evaluation's frame has its own.
  expression.registerFunction(
    'millis',
    function millis(this: Focus) {
      return this.environment.timestamp instanceof Date ? this.environment.timestamp.getTime() : Date.now();
    },
    '<:n>',
  );
  expression.registerFunction(concatName, concatenation(builtIns.get('string')!));
  expression.assign(entryHook as unknown as string, rewriteConcatenation);
  expression.assign(exitHook as unknown as string, checkResult);
  return expression;
}
