import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { CounterStore } from '../counterStore.ts';
import { errorMessage } from '../thrown.ts';

/**
 * Failed authentications, counted per subject in fixed windows: at the token endpoint per
 * client address (FIELDWORK_TOKEN_LIMITS), at the console's sign-in form per login and per
 * client address (FIELDWORK_LOGIN_LIMITS). Once a count reaches its figure, the answer is
 * 429 with Retry-After, without checking the secret or password (no scrypt), until the
 * window ends. A success does not count.
 *
 * What stops a guesser: an address gets `perAddress.failures` guesses per window across
 * every client id or login it tries; a login gets `perLogin.failures` per window whatever
 * the addresses. Client secrets are not limited per client id (anyone could lock a real
 * client out): they are too long to guess (43 generated characters, at least 32 imported).
 */
const Window = z.strictObject({
  failures: z.number().int().positive(),
  windowSeconds: z.number().int().positive().max(86_400),
});
export type FailureWindow = z.infer<typeof Window>;

export type TokenLimitFigures = { perAddress: FailureWindow };
export type LoginLimitFigures = { perLogin: FailureWindow; perAddress: FailureWindow };

export const DEFAULT_TOKEN_LIMITS: TokenLimitFigures = {
  perAddress: { failures: 30, windowSeconds: 60 },
};
export const DEFAULT_LOGIN_LIMITS: LoginLimitFigures = {
  perLogin: { failures: 5, windowSeconds: 60 },
  perAddress: { failures: 20, windowSeconds: 60 },
};

/** Reads a JSON of windows by subject (missing keys keep their default); a startup error otherwise. */
function parseLimits<F extends { [K in keyof F]: FailureWindow }>(
  name: string,
  text: string | undefined,
  defaults: F,
): F {
  if (!text?.trim()) return structuredClone(defaults);
  const schema = z.strictObject(
    Object.fromEntries(Object.keys(defaults).map((k) => [k, Window.partial().optional()])),
  );
  let given: Record<string, Partial<FailureWindow> | undefined>;
  try {
    given = schema.parse(JSON.parse(text)) as typeof given;
  } catch (e) {
    const why = e instanceof z.ZodError ? z.prettifyError(e) : errorMessage(e);
    throw new Error(`${name}: ${why}. Expected JSON like ${JSON.stringify(defaults)}`);
  }
  const windows = Object.entries(defaults as Record<string, FailureWindow>);
  return Object.fromEntries(windows.map(([k, w]) => [k, { ...w, ...given[k] }])) as F;
}

export const parseTokenLimits = (text: string | undefined) =>
  parseLimits('FIELDWORK_TOKEN_LIMITS', text, DEFAULT_TOKEN_LIMITS);
export const parseLoginLimits = (text: string | undefined) =>
  parseLimits('FIELDWORK_LOGIN_LIMITS', text, DEFAULT_LOGIN_LIMITS);

/** The counters of one kind of authentication, by subject (`perAddress`, `perLogin`...). */
export interface FailureGuard<K extends string> {
  /**
   * Counts an attempt before the secret is checked (so concurrent guesses cannot all slip
   * under the figure): the seconds to wait when a budget is spent (nothing counted), else
   * `succeeded`, to call when the secret was right (a success does not count).
   */
  attempt(subjects: Record<K, string>): Promise<{ wait: number } | { succeeded(): Promise<void> }>;
}
export type TokenGuard = FailureGuard<keyof TokenLimitFigures>;
export type LoginGuard = FailureGuard<keyof LoginLimitFigures>;

/** `prefix`: `fieldwork:<instance id>:<kind>:` (app.ts). */
export function createFailureGuard<K extends string>(
  store: CounterStore,
  figures: Record<K, FailureWindow>,
  options: { prefix: string; now?: () => number },
): FailureGuard<K> {
  const now = options.now ?? Date.now;
  // Logins and addresses are chosen by whoever calls: hashed, so a key has a bounded length.
  const digest = (v: string) => createHash('sha256').update(v).digest('base64url').slice(0, 22);
  function windows(subjects: Record<K, string>) {
    const t = now();
    return (Object.keys(figures) as K[]).map((kind) => {
      const w = figures[kind];
      const ms = w.windowSeconds * 1000;
      const index = Math.floor(t / ms);
      return {
        // One key per call: the subjects may sit on different Redis Cluster slots.
        key: `${options.prefix}{${kind}:${digest(subjects[kind])}}:${w.windowSeconds}:${index}`,
        limit: w.failures,
        ttlMs: ms + 1000,
        reset: Math.max(1, Math.ceil(((index + 1) * ms - t) / 1000)),
      };
    });
  }
  const giveBack = (keys: string[]) => Promise.all(keys.map((key) => store.release([key], 1)));
  return {
    async attempt(subjects) {
      const taken: string[] = [];
      for (const w of windows(subjects)) {
        // Atomic: one unit, none when the window is at its figure.
        const { granted } = await store.reserve([w.key], [w.limit], [w.ttlMs], 1, 1);
        if (granted === 0) {
          await giveBack(taken);
          return { wait: w.reset };
        }
        taken.push(w.key);
      }
      return { succeeded: async () => void (await giveBack(taken)) };
    },
  };
}

export const createTokenGuard = (
  store: CounterStore,
  figures: TokenLimitFigures,
  options: { prefix: string; now?: () => number },
): TokenGuard => createFailureGuard(store, { perAddress: figures.perAddress }, options);

export const createLoginGuard = (
  store: CounterStore,
  figures: LoginLimitFigures,
  options: { prefix: string; now?: () => number },
): LoginGuard =>
  createFailureGuard(store, { perLogin: figures.perLogin, perAddress: figures.perAddress }, options);
