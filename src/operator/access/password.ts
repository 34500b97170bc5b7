// Local accounts' password hashes: scrypt (node:crypto), N = 2^15, r = 8, p = 1, a 16-byte random
// salt, a 32-byte key; the parameters are stored with each hash so they can be raised later
// without invalidating older hashes. About 100 ms and 32 MiB per check: cheap for one login, dear
// for a guesser (who also meets the credential throttle first).
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export const SCRYPT = { N: 2 ** 15, r: 8, p: 1, keyLength: 32, saltLength: 16 } as const;
export const MIN_PASSWORD_LENGTH = 12;

function derive(password: string, salt: Buffer, keyLength: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, keyLength, { ...opts, maxmem: 128 * opts.N! * opts.r! * 2 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** `scrypt$N$r$p$salt$key`, salt and key base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SCRYPT.saltLength);
  const key = await derive(password, salt, SCRYPT.keyLength, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join(
    '$',
  );
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parts = (stored ?? '').split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0) || N > 2 ** 20) return false;
  const expected = Buffer.from(parts[5], 'base64url');
  try {
    const key = await derive(password, Buffer.from(parts[4], 'base64url'), expected.length, { N, r, p });
    return key.length === expected.length && timingSafeEqual(key, expected);
  } catch {
    return false; // parameters scrypt refuses: a damaged row matches nothing
  }
}

/** Why a new password is refused, or undefined. */
export function passwordWeakness(password: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH)
    return `a password needs at least ${MIN_PASSWORD_LENGTH} characters`;
  if (new Set(password).size < 5) return 'a password needs more than four different characters';
  return undefined;
}
