/** graphile-worker's logging, written through the process logger (same format and redaction). */
import { Logger, type LogFunctionFactory } from 'graphile-worker';
import { log } from '../server/core/log';

const logFactory: LogFunctionFactory = (scope) => {
  const scoped = log.child({ component: 'worker', ...scope });
  return (level, message, meta) => {
    const method = level === 'warning' ? 'warn' : level;
    scoped[method](meta ?? {}, message);
  };
};

export const graphileLogger = new Logger(logFactory);
