/**
 * A client's error (4xx) carries its stack as a plain string: reading it never calls the stack formatter (in the web
 * process, Next.js's source-mapping hook), while a server's error (5xx) keeps its frames for the log.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from './app-error';

const original = Error.prepareStackTrace;
afterEach(() => {
  Error.prepareStackTrace = original;
});

describe('AppError stack', () => {
  it('a 4xx error is read without formatting a stack; a 5xx error is formatted with its frames', () => {
    const formatter = vi.fn((error: Error, frames: NodeJS.CallSite[]) => `${error.name}: ${error.message}\n${frames.map((frame) => `    at ${frame.getFunctionName() ?? '<anonymous>'}`).join('\n')}`);
    Error.prepareStackTrace = formatter;
    const refused = new AppError('auth.unauthenticated');
    expect(refused.status).toBe(401);
    expect(refused.stack).toBe(`AppError: auth.unauthenticated: ${refused.message}`);
    expect(formatter).not.toHaveBeenCalled();

    const fault = new AppError('internal.error');
    expect(fault.status).toBe(500);
    expect(fault.stack).toMatch(/\n {4}at /);
    expect(formatter).toHaveBeenCalledTimes(1);
  });
});
