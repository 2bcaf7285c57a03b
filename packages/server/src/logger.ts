import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

/**
 * Query parameters that carry a secret (the e-mailed links' `token`, OAuth's `code`), and
 * paths that are one (an invite link): also where a parameter names such a path, encoded or
 * not (`/sign-in?next=%2Fjoin%2F…`, the page to return to).
 */
const secretParameters = /([?&](?:token|code|access_token|refresh_token|key|secret|password)=)[^&#]*/gi;
const secretPaths = /((?:^|\/|%2F)join(?:\/|%2F))[^/?#&%]+/gi;

/** A request URL as logs may keep it: the secrets of one-time links censored. */
export function loggableUrl(url: string): string {
  return url.replace(secretPaths, '$1[redacted]').replace(secretParameters, '$1[redacted]');
}

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/**
 * Structured JSON logs on stdout. Credentials never reach a log line: the
 * Authorization header and anything named like a secret are censored, and so are the
 * one-time tokens of links (password reset, e-mail verification, invites) in request URLs.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
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
    serializers: {
      // Fastify's request serializer, with the URL made loggable.
      req: (request: LoggedRequest) => ({
        method: request.method,
        url: loggableUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
