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
import { PassThrough, type Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
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

/** The request codings decoded (RFC 9110 §8.4.1); `x-gzip` is gzip's old name. */
const DECODERS: Record<string, () => Transform> = {
  gzip: () => createGunzip(),
  'x-gzip': () => createGunzip(),
  deflate: () => createInflate(),
  br: () => createBrotliDecompress(),
};

/**
 * Fastify preParsing hook: a body sent with `Content-Encoding` gzip, deflate or br is
 * decoded as it is read, and refused with 413 `request.payload.toolarge` as soon as its
 * decoded bytes pass `limit` (a bomb costs at most `limit` bytes, never the inflation of
 * all of it). Another coding, or several, is 415 `request.encoding.unsupported`; bytes that
 * do not decode are 400 `request.encoding.invalid`. Content-Length counts the bytes sent,
 * as HTTP says (Fastify compares it with `receivedEncodedLength`).
 */
export function decodeContentEncoding(limit: number) {
  return (
    request: FastifyRequest,
    _reply: unknown,
    payload: Readable,
    done: (err: Error | null, stream?: Readable) => void,
  ) => {
    const header = request.headers['content-encoding'];
    const coding = (Array.isArray(header) ? header.join(',') : (header ?? '')).trim().toLowerCase();
    if (coding === '' || coding === 'identity') return done(null, payload);
    const decoder = DECODERS[coding]?.();
    if (!decoder)
      return done(
        new ApiError(
          415,
          CommonCodes.encodingUnsupported,
          `Content-Encoding ${coding.slice(0, 40)} is not supported: send identity, gzip, deflate or br`,
        ),
      );
    const decoded = Object.assign(new PassThrough(), { receivedEncodedLength: 0 });
    let length = 0;
    const fail = (err: ApiError) => {
      payload.unpipe(decoder);
      decoder.destroy();
      decoded.destroy(err);
    };
    payload.on('data', (chunk: Buffer) => {
      decoded.receivedEncodedLength += chunk.length;
    });
    decoder.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length > limit)
        fail(
          new ApiError(413, CommonCodes.payloadTooLarge, `The decoded body is larger than ${limit} bytes`),
        );
      else decoded.write(chunk);
    });
    decoder.on('end', () => decoded.end());
    decoder.on('error', () =>
      fail(new ApiError(400, CommonCodes.encodingInvalid, `The body is not valid ${coding} data`)),
    );
    payload.on('error', (err) => decoded.destroy(err));
    payload.pipe(decoder);
    done(null, decoded);
  };
}
