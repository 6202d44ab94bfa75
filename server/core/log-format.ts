/**
 * How the process logger writes its lines: one readable line per record for people by default
 * (`06:07:01.123 INFO  worker  message key=value`), pino's JSON when `LOG_FORMAT=json` (for a log
 * collector). The readable form is a small formatter over pino's JSON rather than pino-pretty: pino
 * redacts before serialising, so the formatter only ever sees redacted records, and it adds no
 * transport thread or dependency.
 */

export type LogFormat = 'pretty' | 'json';

export function logFormatFrom(env: Readonly<Record<string, string | undefined>>): LogFormat {
  return env.LOG_FORMAT?.trim().toLowerCase() === 'json' ? 'json' : 'pretty';
}

const levelNames: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** Fields every record carries, shown in the line's fixed part or not at all. */
const fixedFields = new Set(['level', 'time', 'msg', 'component', 'pid', 'hostname', 'err']);

function clock(time: unknown): string {
  const date = typeof time === 'number' ? new Date(time) : new Date();
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

/** `key=value`, quoted when the value has spaces, JSON for objects. */
function field(key: string, value: unknown): string {
  if (typeof value === 'string') return `${key}=${/[\s"=]/.test(value) || value === '' ? JSON.stringify(value) : value}`;
  if (value === null || typeof value !== 'object') return `${key}=${String(value)}`;
  return `${key}=${JSON.stringify(value)}`;
}

interface SerialisedError {
  type?: string;
  message?: string;
  stack?: string;
}

/** One record (pino's JSON, already redacted) as a line for people; an error's stack follows, indented. */
export function formatLogRecord(record: Record<string, unknown>): string {
  const level = levelNames[Number(record.level)] ?? String(record.level);
  const parts = [clock(record.time), level.padEnd(5)];
  if (typeof record.component === 'string') parts.push(record.component);
  if (typeof record.msg === 'string' && record.msg !== '') parts.push(record.msg);
  for (const [key, value] of Object.entries(record)) {
    if (!fixedFields.has(key) && value !== undefined) parts.push(field(key, value));
  }
  const err = record.err as SerialisedError | undefined;
  if (err && typeof err === 'object') {
    parts.push(field('err', `${err.type ?? 'Error'}: ${err.message ?? ''}`));
    // The stack's first line repeats the message; the frames are what a person needs.
    const frames = (err.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
    if (frames.length > 0) return `${parts.join(' ')}\n${frames.map((line) => `    ${line.trim()}`).join('\n')}`;
  }
  return parts.join(' ');
}

/** A pino destination writing readable lines to `write` (stdout by default). */
export function prettyDestination(write: (text: string) => void = (text) => process.stdout.write(text)) {
  return {
    write(json: string): void {
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(json) as Record<string, unknown>;
      } catch {
        write(json);
        return;
      }
      write(`${formatLogRecord(record)}\n`);
    },
  };
}
