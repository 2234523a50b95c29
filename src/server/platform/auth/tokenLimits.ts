import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { CounterStore } from '../counterStore.ts';

/**
 * Failed client authentications at the token endpoint, counted per client id and per
 * client address in fixed windows (FIELDWORK_TOKEN_LIMITS). Once either count reaches its
 * figure, the endpoint answers 429 with Retry-After without checking the secret, until the
 * window ends: a guesser gets `perClient.failures` guesses per window and client id, and
 * one address `perAddress.failures` across every client id it tries. A correct secret
 * does not count. The per-client figure also holds against the right secret during the
 * window (that is what stops a guesser spread over many addresses); the window is short.
 */
const Window = z.strictObject({
  failures: z.number().int().positive(),
  windowSeconds: z.number().int().positive().max(86_400),
});
const Figures = z.strictObject({
  perClient: Window.partial().optional(),
  perAddress: Window.partial().optional(),
});

export interface TokenLimitFigures {
  perClient: z.infer<typeof Window>;
  perAddress: z.infer<typeof Window>;
}

export const DEFAULT_TOKEN_LIMITS: TokenLimitFigures = {
  perClient: { failures: 10, windowSeconds: 60 },
  perAddress: { failures: 30, windowSeconds: 60 },
};

/** Reads FIELDWORK_TOKEN_LIMITS (JSON, missing keys keep their default); a startup error otherwise. */
export function parseTokenLimits(text: string | undefined): TokenLimitFigures {
  if (!text?.trim()) return structuredClone(DEFAULT_TOKEN_LIMITS);
  let given: z.infer<typeof Figures>;
  try {
    given = Figures.parse(JSON.parse(text));
  } catch (e) {
    const why = e instanceof z.ZodError ? z.prettifyError(e) : (e as Error).message;
    throw new Error(
      `FIELDWORK_TOKEN_LIMITS: ${why}. Expected JSON like {"perClient":{"failures":10,"windowSeconds":60},"perAddress":{"failures":30,"windowSeconds":60}}`,
    );
  }
  return {
    perClient: { ...DEFAULT_TOKEN_LIMITS.perClient, ...given.perClient },
    perAddress: { ...DEFAULT_TOKEN_LIMITS.perAddress, ...given.perAddress },
  };
}

export interface TokenGuard {
  /** Seconds to wait when a budget is spent, else undefined. */
  refusal(clientId: string, address: string): Promise<number | undefined>;
  failed(clientId: string, address: string): Promise<void>;
}

/** `prefix`: `fieldwork:<instance id>:auth:` (app.ts). */
export function createTokenGuard(
  store: CounterStore,
  figures: TokenLimitFigures,
  options: { prefix: string; now?: () => number },
): TokenGuard {
  const now = options.now ?? Date.now;
  // Client ids are chosen by whoever calls: hashed, so a key has a bounded length.
  const digest = (v: string) => createHash('sha256').update(v).digest('base64url').slice(0, 22);
  function windows(clientId: string, address: string) {
    const t = now();
    return [
      { subject: `client:${digest(clientId)}`, ...figures.perClient },
      { subject: `addr:${address}`, ...figures.perAddress },
    ].map((w) => {
      const ms = w.windowSeconds * 1000;
      const index = Math.floor(t / ms);
      return {
        // One key per call: the two subjects may sit on different Redis Cluster slots.
        key: `${options.prefix}{${w.subject}}:${w.windowSeconds}:${index}`,
        limit: w.failures,
        ttlMs: ms + 1000,
        reset: Math.max(1, Math.ceil(((index + 1) * ms - t) / 1000)),
      };
    });
  }
  return {
    async refusal(clientId, address) {
      const ws = windows(clientId, address);
      const counts = await Promise.all(ws.map((w) => store.peek([w.key]).then((c) => c[0])));
      const spent = ws.filter((w, i) => counts[i] >= w.limit);
      return spent.length > 0 ? Math.max(...spent.map((w) => w.reset)) : undefined;
    },
    async failed(clientId, address) {
      await Promise.all(windows(clientId, address).map((w) => store.hit([w.key], [w.ttlMs])));
    },
  };
}
