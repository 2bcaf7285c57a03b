import { errorCatalogue } from '@gantry/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, invalid } from '../domain/errors.js';
import { isStoreUnavailable } from '../store/store.js';

/** Fastify's own client errors (body parsing, size), translated to our catalogue. */
function fromFastify(error: FastifyError): AppError | null {
  if (error.statusCode === 413) {
    return new AppError('payload_too_large', error.message, { limitBytes: undefined });
  }
  if (error.statusCode === 415) {
    return invalid([{ path: 'headers.content-type', message: 'request bodies must be sent as application/json' }]);
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return invalid([{ path: 'body', message: error.message }]);
  }
  return null;
}

/** The response body of an error: `{error, message, details?}`. */
export function errorBody(error: AppError): { error: string; message: string; details?: unknown } {
  return { error: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) };
}

/**
 * The one place that turns an error into a response body. Anything that is not an
 * AppError or a known client error is a bug: logged with the request id, answered as
 * `server_error` without its message.
 */
export function installErrorHandler(app: FastifyInstance, bodyLimitBytes: number, baseUrl: string): void {
  // RFC 9728 §5.1: a 401 names where an OAuth client learns how to get a token for the API.
  const challenge = `Bearer resource_metadata="${baseUrl}/.well-known/oauth-protected-resource/api", scope="service:read service:write"`;
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    let appError = error instanceof AppError ? error : fromFastify(error);
    if (appError?.code === 'payload_too_large') {
      // A route that takes a file (an import) names the file as the problem: a 400 on its field.
      const fileField = (request.routeOptions.config as { fileField?: string } | undefined)?.fileField;
      appError = fileField
        ? invalid([{ path: fileField, message: `the file is larger than ${bodyLimitBytes} bytes, the largest request body` }])
        : new AppError('payload_too_large', `request bodies are limited to ${bodyLimitBytes} bytes`, { limitBytes: bodyLimitBytes });
    }
    if (!appError && isStoreUnavailable(error)) {
      request.log.warn({ err: error }, 'the database cannot be reached');
      reply.header('retry-after', 5);
      appError = new AppError('service_unavailable', 'the database cannot be reached right now; retry with exponential backoff');
    }
    if (!appError) {
      request.log.error({ err: error }, 'unhandled error');
      return reply.code(errorCatalogue.server_error.status).send({ error: 'server_error', message: 'internal error; retry with exponential backoff' });
    }
    if (appError.status >= 500 && appError.code !== 'service_unavailable') request.log.error({ err: error }, appError.message);
    // A route serving another resource (MCP) has named its own metadata already.
    if (appError.code === 'unauthorized' && !reply.hasHeader('www-authenticate')) reply.header('www-authenticate', challenge);
    const retryAfterSec = appError.details?.retryAfterSec;
    if (appError.code === 'rate_limited' && typeof retryAfterSec === 'number' && !reply.hasHeader('retry-after')) reply.header('retry-after', retryAfterSec);
    return reply.code(appError.status).send(errorBody(appError));
  });
}
