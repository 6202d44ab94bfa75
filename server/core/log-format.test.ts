import { describe, expect, it } from 'vitest';
import { createLogger } from './log';
import { formatLogRecord, logFormatFrom } from './log-format';

function linesOf(env: Readonly<Record<string, string | undefined>>, use: (log: ReturnType<typeof createLogger>) => void): string[] {
  const lines: string[] = [];
  const log = createLogger(env, (text) => lines.push(text));
  log.level = 'info';
  use(log);
  return lines;
}

describe('log format', () => {
  it('writes readable lines by default: time, level, component, message, fields', () => {
    const [line] = linesOf({}, (log) => log.child({ component: 'worker' }).info({ mailboxId: 'mbx_1', count: 3 }, 'mailbox synced'));
    expect(line).toMatch(/^\d{2}:\d{2}:\d{2}\.\d{3} INFO {2}worker mailbox synced mailboxId=mbx_1 count=3\n$/);
    expect(line).not.toContain('"level"');
    expect(line).not.toContain('hostname');
  });

  it('writes JSON when LOG_FORMAT=json', () => {
    const [line] = linesOf({ LOG_FORMAT: 'json' }, (log) => log.info({ count: 3 }, 'hello'));
    expect(JSON.parse(line)).toMatchObject({ level: 30, msg: 'hello', count: 3 });
  });

  it('redacts secrets in readable lines too', () => {
    const [line] = linesOf({}, (log) => log.warn({ auth: { user: 'a', pass: 'hunter2' }, password: 'hunter2' }, 'login failed'));
    expect(line).not.toContain('hunter2');
    expect(line).toContain('WARN  login failed');
  });

  it('shows an error as its type and message, then its frames indented', () => {
    const [line] = linesOf({}, (log) => log.error({ err: new TypeError('boom') }, 'runner failed'));
    const [first, ...frames] = line.trimEnd().split('\n');
    expect(first).toMatch(/ERROR runner failed err="TypeError: boom"$/);
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.every((frame) => frame.startsWith('    at '))).toBe(true);
  });

  it('reads LOG_FORMAT case-insensitively and falls back to readable', () => {
    expect(logFormatFrom({ LOG_FORMAT: 'JSON' })).toBe('json');
    expect(logFormatFrom({ LOG_FORMAT: 'pretty' })).toBe('pretty');
    expect(logFormatFrom({})).toBe('pretty');
    expect(formatLogRecord({ level: 30, time: 0, msg: 'a b', note: 'has space' })).toMatch(/INFO {2}a b note="has space"$/);
  });
});
