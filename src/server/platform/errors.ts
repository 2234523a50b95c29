import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CommonCodes, OperationsCodes } from '../../contract/errors.ts';
import { isDatabaseUnavailable } from '../db/faults.ts';

export interface ErrorItem {
  code: string;
  message: string;
}

/** A refusal with the spec's error body. Throw it from anywhere in a request. */
export class ApiError extends Error {
  readonly errors: ErrorItem[];
  constructor(
    readonly status: number,
    codeOrErrors: string | ErrorItem[],
    message?: string,
    readonly headers: Record<string, string> = {},
  ) {
    const errors =
      typeof codeOrErrors === 'string'
        ? [{ code: codeOrErrors, message: message ?? codeOrErrors }]
        : codeOrErrors;
    super(errors.map((e) => e.code).join(', '));
    this.errors = errors;
  }
}

export const badRequest = (code: string, message: string) => new ApiError(400, code, message);
export const notFound = (code: string, message: string) => new ApiError(404, code, message);

function send(request: FastifyRequest, reply: FastifyReply, status: number, errors: ErrorItem[]) {
  // The request id is the error reference: unique per request and on the request's log line.
  const errorReference = request.id;
  if (status >= 500) request.log.error({ errorReference, errors }, 'request failed');
  else request.log.info({ errorReference, codes: errors.map((e) => e.code) }, 'request refused');
  return reply.status(status).type('application/json; charset=utf-8').send({ errors, errorReference });
}

/**
 * Fastify's `frameworkErrors` option: errors raised before routing (a malformed
 * percent-encoding in the URL, a path parameter over maxParamLength) would otherwise be
 * answered with Fastify's own body.
 */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const tooLong = err.code === 'FST_ERR_MAX_PARAM_LENGTH';
  return send(request, reply, tooLong ? 414 : 400, [
    tooLong
      ? { code: 'request.uri.toolong', message: 'A path segment is too long' }
      : { code: 'request.url.invalid', message: 'The URL is malformed' },
  ]);
}

/**
 * Node's HTTP parser refuses some requests before Fastify sees them: a request line and
 * headers over `maxHeaderSize` (app.ts), a malformed request, a client too slow to send
 * its headers. Fastify's `clientErrorHandler` option: the answer is written on the socket
 * with the spec's error body and an errorReference that is on the log line.
 */
export function clientErrorHandler(log: () => FastifyBaseLogger) {
  return (err: NodeJS.ErrnoException, socket: Socket) => {
    // The connection is gone (reset by the client): nothing to answer.
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, error] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, { code: CommonCodes.headersTooLarge, message: 'The request line and headers are too large' }]
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, { code: CommonCodes.requestTimeout, message: 'The request was not received in time' }]
          : [400, { code: CommonCodes.malformedRequest, message: 'The HTTP request is malformed' }];
    const errorReference = randomUUID();
    log().info(
      { errorReference, err: { code: err.code, message: err.message } },
      'request refused by the HTTP parser',
    );
    const body = JSON.stringify({ errors: [error], errorReference });
    if (!socket.writable) return void socket.destroy();
    // end() sends the answer before closing; the rest of what the client sends is read and
    // dropped (closing with unread data would reset the connection, losing the answer).
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    socket.resume();
    setTimeout(() => socket.destroy(), 2000).unref();
  };
}

/** Seconds a client is asked to wait after a 503 `service.database.unavailable`. */
export const DATABASE_RETRY_AFTER = 2;

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError | ApiError, request, reply) => {
    if (err instanceof ApiError) {
      for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
      return send(request, reply, err.status, err.errors);
    }
    const status = (err as FastifyError).statusCode ?? 500;
    if (status === 415)
      return send(request, reply, 415, [
        { code: CommonCodes.unsupportedMediaType, message: 'Content-Type must be application/json' },
      ]);
    if (status === 413)
      return send(request, reply, 413, [
        { code: CommonCodes.payloadTooLarge, message: 'Request body is too large' },
      ]);
    if (status >= 400 && status < 500) {
      return send(request, reply, status, [{ code: `request.invalid`, message: err.message }]);
    }
    // The database could not be reached, lost the connection or did not answer in time
    // (db/faults.ts): nothing was acknowledged; the client may retry shortly.
    if (isDatabaseUnavailable(err)) {
      request.log.warn({ err }, 'database unavailable');
      reply.header('retry-after', String(DATABASE_RETRY_AFTER));
      return send(request, reply, 503, [
        {
          code: OperationsCodes.databaseUnavailable,
          message: 'The database is unavailable or did not answer in time; retry shortly',
        },
      ]);
    }
    request.log.error({ err }, 'unexpected error');
    return send(request, reply, 500, [
      { code: CommonCodes.internal, message: 'Internal error; quote the errorReference to support' },
    ]);
  });
  app.setNotFoundHandler((request, reply) =>
    send(request, reply, 404, [
      { code: CommonCodes.routeNotFound, message: `No route ${request.method} ${request.url.split('?')[0]}` },
    ]),
  );
}
