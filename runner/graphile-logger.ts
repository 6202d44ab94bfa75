/** graphile-worker's logging, written through the process logger (same format and redaction). */
import { Logger, type LogFunctionFactory } from 'graphile-worker';
import type { Logger as PinoLogger } from 'pino';
import { log } from '../server/core/log';

/**
 * graphile says "Completed task … with success" at info for every job: with the crontab's per-minute
 * purges and every workflow step that is a line per job, so those go to debug. Failures keep their level.
 */
function levelFor(level: string, meta: Record<string, unknown> | undefined): 'error' | 'warn' | 'info' | 'debug' {
  if (level === 'warning') return 'warn';
  if (level === 'info' && meta?.success === true) return 'debug';
  return level as 'error' | 'info' | 'debug';
}

export function graphileLoggerFor(base: PinoLogger): Logger {
  const logFactory: LogFunctionFactory = (scope) => {
    const scoped = base.child({ component: 'worker', ...scope });
    return (level, message, meta) => {
      scoped[levelFor(level, meta)](meta ?? {}, message);
    };
  };
  return new Logger(logFactory);
}

export const graphileLogger = graphileLoggerFor(log);
