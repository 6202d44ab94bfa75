/**
 * A JSON object whose keys are chosen by the client (cells by column key, a CSV mapping by header).
 * zod's record drops a `__proto__` key without a word (so it can never replace the prototype); here
 * such a key is refused with a 400 instead, so a client never gets a success for data that was
 * silently left out. The number of keys is bounded before any key is looked at.
 */
import { z } from 'zod';

export function ownRecord<K extends z.ZodType<string, string>, V extends z.ZodType>(key: K, value: V, options: { maxKeys: number }) {
  return z.preprocess((input, ctx) => {
    if (typeof input !== 'object' || input === null) return input;
    if (Object.keys(input).length > options.maxKeys) {
      ctx.addIssue({ code: 'too_big', origin: 'object', maximum: options.maxKeys, inclusive: true, message: `At most ${options.maxKeys} keys.`, input });
      return z.NEVER;
    }
    if (Object.hasOwn(input, '__proto__')) {
      ctx.addIssue({ code: 'custom', message: '`__proto__` cannot be used as a key.', path: ['__proto__'], input });
      return z.NEVER;
    }
    return input;
  }, z.record(key, value));
}
