/**
 * Encodings of a JSON body (docs/security.md). JSON is UTF-8 (RFC 8259 §8.1):
 *
 * - a `charset` parameter other than `utf-8` (`charset=utf-16`, `latin1`...) is refused with
 *   415 `request.mediatype.unsupported` instead of being decoded as UTF-8;
 * - bytes that are not well-formed UTF-8 are refused by the endpoint with 400
 *   `<domain>.invalid.json` (routes.ts), instead of being decoded to U+FFFD and stored;
 * - a string holding a lone surrogate (`"\ud800"`, well-formed JSON) is refused as an invalid
 *   field (routes.ts refuseUnstorable): PostgreSQL text would store it as U+FFFD too.
 */
import type { FastifyRequest } from 'fastify';
import { CommonCodes } from '../../contract/errors.ts';
import { ApiError } from './errors.ts';

/** The body of a request whose bytes are not UTF-8: the endpoint answers `<domain>.invalid.json`. */
export const INVALID_UTF8: unique symbol = Symbol('invalid UTF-8 body');

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The charset parameter of a Content-Type, lowercased; undefined without one. */
export function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  return match ? (match[1] ?? match[2]).toLowerCase() : undefined;
}

/** Fastify content-type parser of JSON bodies: the text, or INVALID_UTF8. */
export function decodeJsonBody(
  request: FastifyRequest,
  body: string | Buffer,
  done: (err: Error | null, body?: string | typeof INVALID_UTF8) => void,
) {
  const charset = charsetOf(request.headers['content-type']);
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')
    return done(
      new ApiError(
        415,
        CommonCodes.unsupportedMediaType,
        `charset=${charset.slice(0, 40)} is not supported: JSON bodies are UTF-8`,
      ),
    );
  if (typeof body === 'string') return done(null, body);
  try {
    done(null, utf8.decode(body));
  } catch {
    done(null, INVALID_UTF8);
  }
}
