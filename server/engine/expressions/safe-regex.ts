/**
 * Regular expressions with linear-time matching (RE2JS, a port of RE2: no backtracking, so no
 * catastrophic patterns), for the expression language and the condition operator `matches_regex`.
 */
import { RE2JS } from 're2js';

export const regexBounds = { maxPatternLength: 200, maxSubjectLength: 10_000 } as const;

/** A compiled pattern, or an Error explaining why it is refused. */
export function compileSafeRegex(pattern: string | RegExp): RE2JS | Error {
  const source = typeof pattern === 'string' ? pattern : pattern.source;
  if (source.length > regexBounds.maxPatternLength) return new Error(`The pattern is longer than ${regexBounds.maxPatternLength} characters.`);
  try {
    return RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch {
    return new Error('The pattern is not a supported regular expression (RE2 syntax: no back-references or look-arounds).');
  }
}

/** Whether `subject` (cut to the bound) contains a match of `pattern`. Throws when the pattern is refused. */
export function safeRegexTest(pattern: string, subject: string): boolean {
  const compiled = compileSafeRegex(pattern);
  if (compiled instanceof Error) throw compiled;
  return compiled.test(subject.slice(0, regexBounds.maxSubjectLength));
}

/**
 * A `RegexEngine` for JSONata (its regex literals call `new RegexEngine(re)` then `exec` from
 * `lastIndex`), matching with RE2JS.
 */
export class JsonataRegexEngine {
  lastIndex = 0;
  readonly source: string;
  private readonly compiled: RE2JS;

  constructor(pattern: RegExp | string) {
    const compiled = compileSafeRegex(pattern);
    if (compiled instanceof Error) throw Object.assign(compiled, { code: 'D1004' });
    this.compiled = compiled;
    this.source = typeof pattern === 'string' ? pattern : pattern.source;
  }

  exec(input: string): (RegExpExecArray & { index: number }) | null {
    if (input.length > regexBounds.maxSubjectLength * 100) throw Object.assign(new Error('The text is too long for a regular expression.'), { code: 'D1004' });
    const matcher = this.compiled.matcher(input);
    if (!matcher.find(this.lastIndex)) return null;
    const groups: string[] = [matcher.group(0) ?? ''];
    for (let index = 1; index <= matcher.groupCount(); index += 1) groups.push(matcher.group(index) ?? (undefined as unknown as string));
    const result = Object.assign(groups, { index: matcher.start(0), input }) as unknown as RegExpExecArray & { index: number };
    this.lastIndex = matcher.end(0);
    return result;
  }
}
