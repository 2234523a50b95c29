/**
 * One delivery attempt over HTTP: resolve the callback host, check every address it
 * resolves to (addresses.ts), connect to the checked address (never resolving again), POST
 * the body, and wait for the status line, all within the timeout. Redirects are not
 * followed (a 3xx is a failed attempt).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { errorCode, errorMessage } from '../platform/thrown.ts';
import { literalAddress, refuseAddresses } from './addresses.ts';

export interface ResolvedAddress {
  address: string;
  family: number;
}
/** How a host name is resolved (tests resolve names of their own). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export interface AttemptResult {
  /** The answer's status, or null when none arrived in time (refused, timeout, DNS...). */
  statusCode: number | null;
  /** Why the attempt failed; null for a 2xx. */
  error: string | null;
  durationMs: number;
}

export interface SendOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  resolve: Resolver;
  agents: { http: http.Agent; https: https.Agent };
  /** Extra certificate authorities for https callbacks (tests). */
  ca?: string | Buffer;
}

export function createAgents() {
  return {
    http: new http.Agent({ keepAlive: true, maxSockets: 64, scheduling: 'lifo' }),
    https: new https.Agent({ keepAlive: true, maxSockets: 64, scheduling: 'lifo' }),
  };
}

const isSuccess = (status: number) => status >= 200 && status < 300;

function describe(err: unknown): string {
  const code = errorCode(err);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `cannot resolve the host (${code})`;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code) return `${code}: ${errorMessage(err)}`;
  return err instanceof Error ? err.message : String(err);
}

/** POSTs `body` to `target` once; never throws. */
export async function postCallback(
  target: string,
  body: string,
  headers: Record<string, string>,
  options: SendOptions,
): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const timedOut = new Promise<never>((_, reject) =>
    controller.signal.addEventListener('abort', () => reject(new Error('timeout')), { once: true }),
  );
  timedOut.catch(() => {});
  try {
    const url = new URL(target);
    const literal = literalAddress(url.hostname);
    const addresses = literal
      ? [{ address: literal, family: isIP(literal) }]
      : await Promise.race([options.resolve(url.hostname), timedOut]);
    if (addresses.length === 0)
      return { statusCode: null, error: 'the host has no address', durationMs: elapsed() };
    const refusal = refuseAddresses(
      url,
      addresses.map((a) => a.address),
      options.allowPrivate,
    );
    if (refusal) return { statusCode: null, error: refusal, durationMs: elapsed() };
    const statusCode = await Promise.race([
      sendToFirstReachable(url, addresses, literal !== undefined, body, headers, controller.signal, options),
      timedOut,
    ]);
    return {
      statusCode,
      error: isSuccess(statusCode) ? null : `answered HTTP ${statusCode}`,
      durationMs: elapsed(),
    };
  } catch (err) {
    const error = controller.signal.aborted
      ? `no answer within ${Math.round(options.timeoutMs)} ms`
      : describe(err);
    return { statusCode: null, error, durationMs: elapsed() };
  } finally {
    clearTimeout(timer);
  }
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

/** Tries the checked addresses in DNS order while they cannot be reached at all. */
async function sendToFirstReachable(
  url: URL,
  addresses: ResolvedAddress[],
  isLiteral: boolean,
  body: string,
  headers: Record<string, string>,
  signal: AbortSignal,
  options: SendOptions,
): Promise<number> {
  for (let i = 0; ; i++) {
    try {
      return await send(url, addresses[i], isLiteral, body, headers, signal, options);
    } catch (err) {
      const code = errorCode(err) ?? '';
      if (i + 1 >= addresses.length || !UNREACHABLE.has(code) || signal.aborted) throw err;
    }
  }
}

/** An answer's body is read and dropped, up to this size and for this long after its status. */
const MAX_ANSWER_BYTES = 1024 * 1024;
const ANSWER_DRAIN_MS = 2_000;

/**
 * The request itself, on the checked address. A kept-alive connection that the receiver
 * closed in the meantime fails before any answer: the request is sent again once on a new
 * connection (Node's documented pattern, `reusedSocket`).
 */
function send(
  url: URL,
  target: ResolvedAddress,
  isLiteral: boolean,
  body: string,
  headers: Record<string, string>,
  signal: AbortSignal,
  options: SendOptions,
  retried = false,
): Promise<number> {
  const secure = url.protocol === 'https:';
  // Connect to the address that was checked, whatever the name resolves to now.
  const pinned: LookupFunction = (_hostname, opts, callback) => {
    if ((opts as { all?: boolean }).all)
      (callback as (e: null, a: ResolvedAddress[]) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
  return new Promise<number>((resolve, reject) => {
    const req = (secure ? https : http).request({
      method: 'POST',
      hostname: isLiteral ? target.address : url.hostname,
      port: url.port || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      agent: secure ? options.agents.https : options.agents.http,
      lookup: pinned,
      signal,
      ...(secure ? { servername: isLiteral ? undefined : url.hostname, ca: options.ca } : {}),
    });
    req.on('response', (res) => {
      // The status is the answer; the body is read and dropped so the connection can be
      // reused, unless it is too large or too slow (then the connection is closed).
      let bytes = 0;
      const drain = setTimeout(() => res.destroy(), ANSWER_DRAIN_MS);
      drain.unref();
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > MAX_ANSWER_BYTES) res.destroy();
      });
      res.on('close', () => clearTimeout(drain));
      res.on('error', () => {});
      resolve(res.statusCode ?? 0);
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (
        !retried &&
        req.reusedSocket &&
        (err.code === 'ECONNRESET' || err.code === 'EPIPE') &&
        !signal.aborted
      )
        send(url, target, isLiteral, body, headers, signal, options, true).then(resolve, reject);
      else reject(err);
    });
    req.end(body);
  });
}
