import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CommonCodes, OperationsCodes } from '../../contract/errors.ts';
import { isDatabaseUnavailable } from '../db/faults.ts';
import { type MethodIndex, SERVICE_METHODS } from './methods.ts';

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

/** A body is announced and has not arrived whole (`complete` is Node's; not set by inject). */
const bodyUnread = ({ raw }: FastifyRequest) =>
  raw.complete === false &&
  (raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length'] ?? 0) > 0);

function send(request: FastifyRequest, reply: FastifyReply, status: number, errors: ErrorItem[]) {
  // The request id is the error reference: unique per request and on the request's log line.
  const errorReference = request.id;
  if (status >= 500) request.log.error({ errorReference, errors }, 'request failed');
  else request.log.info({ errorReference, codes: errors.map((e) => e.code) }, 'request refused');
  // Refused before its body arrived whole (authentication, rights, rate limit: routes.ts):
  // the rest is not read, the connection closes after the answer (reading it to keep the
  // connection would hand a slow client the time it asks for).
  if (bodyUnread(request)) reply.header('connection', 'close');
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
 * An answer written on the socket itself, with the spec's error body and an errorReference
 * that is on the log line, for a request Fastify never sees; the connection then closes.
 */
function answerOnSocket(
  socket: Socket,
  log: FastifyBaseLogger,
  status: number,
  error: ErrorItem,
  why: { code?: string; message: string },
) {
  const errorReference = randomUUID();
  log.info({ errorReference, err: why }, 'request refused by the HTTP parser');
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
}

/** A method the service implements nowhere (platform/methods.ts). */
const notImplemented = (method: string): ErrorItem => ({
  code: CommonCodes.methodNotImplemented,
  message: `The method ${method.slice(0, 40)} is not implemented`,
});

/**
 * The method of a well-formed request line whose method Node's parser does not know
 * (`FOO /path HTTP/1.1`); undefined for anything else (`NOT HTTP AT ALL` is malformed).
 */
function unknownMethod(err: NodeJS.ErrnoException & { rawPacket?: Buffer }): string | undefined {
  if (err.code !== 'HPE_INVALID_METHOD' || !err.rawPacket) return undefined;
  const line = err.rawPacket.subarray(0, 8192).toString('latin1').split('\n')[0];
  return /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) \S+ HTTP\/1\.[01]\r?$/.exec(line)?.[1];
}

/**
 * Node's HTTP parser refuses some requests before Fastify sees them: a request line and
 * headers over `maxHeaderSize` (app.ts), a malformed request, a method HTTP does not
 * define, a client too slow to send its headers or its body (FIELDWORK_HEADERS_TIMEOUT_MS,
 * FIELDWORK_REQUEST_TIMEOUT_MS). Fastify's `clientErrorHandler` option.
 */
export function clientErrorHandler(log: () => FastifyBaseLogger) {
  return (err: NodeJS.ErrnoException, socket: Socket) => {
    // The connection is gone (reset by the client): nothing to answer.
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const method = unknownMethod(err);
    const [status, error]: [number, ErrorItem] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, { code: CommonCodes.headersTooLarge, message: 'The request line and headers are too large' }]
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, { code: CommonCodes.requestTimeout, message: 'The request was not received in time' }]
          : method
            ? [501, notImplemented(method)]
            : [400, { code: CommonCodes.malformedRequest, message: 'The HTTP request is malformed' }];
    answerOnSocket(socket, log(), status, error, { code: err.code, message: err.message });
  };
}

/**
 * `CONNECT` (a tunnel: Node hands it to the server's 'connect' listeners, and closes the
 * connection without an answer when there is none): 501, like any method the service
 * does not implement.
 */
export function refuseConnect(app: FastifyInstance) {
  app.server.on('connect', (_req: unknown, socket: Socket) =>
    answerOnSocket(socket, app.log, 501, notImplemented('CONNECT'), { message: 'CONNECT' }),
  );
}

/** Seconds a client is asked to wait after a 503 `service.database.unavailable`. */
export const DATABASE_RETRY_AFTER = 2;

export function registerErrorHandling(app: FastifyInstance, methods: MethodIndex) {
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
  app.setNotFoundHandler((request, reply) => {
    const refusal = methodRefusal(methods, request.method, request.url.split('?')[0]);
    if (refusal.allow) reply.header('allow', refusal.allow);
    return send(request, reply, refusal.status, [refusal.error]);
  });
}

/** The answer to a request no route of the service takes (platform/methods.ts): 404, 405 or 501. */
export function methodRefusal(
  methods: MethodIndex,
  method: string,
  path: string,
): { status: number; error: ErrorItem; allow?: string } {
  if (!SERVICE_METHODS.has(method)) return { status: 501, error: notImplemented(method) };
  const allowed = methods.allowed(path);
  if (allowed.length > 0 && !allowed.includes(method))
    return {
      status: 405,
      allow: allowed.join(', '),
      error: {
        code: CommonCodes.methodNotAllowed,
        message: `${path} does not take ${method}; it takes ${allowed.join(', ')}`,
      },
    };
  return { status: 404, error: { code: CommonCodes.routeNotFound, message: `No route ${method} ${path}` } };
}
