import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (
  pw: string,
  salt: Buffer,
  len: number,
  opts: object,
) => Promise<Buffer>;
const PARAMS = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/** scrypt hash of a secret or password: `scrypt$<salt>$<hash>` (base64url). */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(secret, salt, 32, PARAMS);
  return `scrypt$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(secret, Buffer.from(salt, 'base64url'), expected.length, PARAMS);
  return timingSafeEqual(expected, actual);
}

export const newClientSecret = () => randomBytes(32).toString('base64url');

let dummy: Promise<string> | undefined;
/** A hash of the same cost as every stored one, made once. */
export const dummyHash = () => {
  dummy ??= hashSecret(randomBytes(32).toString('base64url'));
  return dummy;
};

/**
 * Verifies against `stored`, or, when there is no such account, against the dummy hash:
 * the time taken does not tell whether the account (login, client id) exists.
 */
export async function verifySecretOrDummy(secret: string, stored: string | undefined): Promise<boolean> {
  const ok = await verifySecret(secret, stored ?? (await dummyHash()));
  return ok && stored !== undefined;
}
