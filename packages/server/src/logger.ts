import { pino, type Logger } from 'pino';

/**
 * Structured JSON logs on stdout. Credentials never reach a log line: the
 * Authorization header and anything named like a secret are censored.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        '*.password',
        '*.secret',
        '*.token',
        '*.key',
        'headers.authorization',
      ],
      censor: '[redacted]',
    },
  });
}
