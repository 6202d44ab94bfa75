/**
 * The process logger. Anything that might carry a secret is redacted by path before it is written.
 */
import pino from 'pino';

export const log = pino({
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
      'headers.authorization',
      'headers.cookie',
      '*.headers.authorization',
      '*.headers.cookie',
    ],
    censor: '[redacted]',
  },
});
