/**
 * The process logger. Anything that might carry a secret is redacted by path before it is written.
 * Lines are readable by people unless `LOG_FORMAT=json` (server/core/log-format.ts).
 */
import pino, { type LoggerOptions } from 'pino';
import { logFormatFrom, prettyDestination } from './log-format';

const options: LoggerOptions = {
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info'),
  redact: {
    paths: [
      'password',
      '*.password',
      'newPassword',
      '*.newPassword',
      'currentPassword',
      '*.currentPassword',
      'secret',
      '*.secret',
      'token',
      '*.token',
      // Mail server logins (IMAP/SMTP connect): the member's password, and the `auth: {user, pass}`
      // option objects of the mail clients (imapflow, nodemailer), should one ever reach a log line.
      '*.*.password',
      'pass',
      '*.pass',
      'auth',
      '*.auth',
      '*.*.auth',
      // Sealed secrets (credential rows) are not readable, but have no business in a log either.
      'dataEnc',
      '*.dataEnc',
      // AI connections: the vendor key as sent by an administrator, and its sealed form.
      'apiKey',
      '*.apiKey',
      'apiKeyEnc',
      '*.apiKeyEnc',
      'headers.authorization',
      'headers.cookie',
      '*.headers.authorization',
      '*.headers.cookie',
    ],
    censor: '[redacted]',
  },
};

/**
 * A logger with the process logger's level and redaction, in the format `env` asks for, writing to
 * `write` (tests) or stdout.
 */
export function createLogger(env: Readonly<Record<string, string | undefined>> = process.env, write?: (text: string) => void): pino.Logger {
  if (logFormatFrom(env) === 'json') return write ? pino(options, { write }) : pino(options);
  return pino(options, prettyDestination(write));
}

export const log = createLogger();
