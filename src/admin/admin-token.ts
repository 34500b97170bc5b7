// Admin authentication: the X-Admin-Token header, a Bearer token, or HTTP basic auth with the
// token as password (so a browser can open Bull Board). Pure, timing-safe.
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string) => createHash('sha256').update(s).digest();

export function presentedToken(headers: Record<string, string | string[] | undefined>): string | undefined {
  const direct = headers['x-admin-token'];
  if (typeof direct === 'string' && direct) return direct;
  const auth = headers['authorization'];
  if (typeof auth !== 'string') return undefined;
  if (auth.startsWith('Bearer ')) return auth.slice(7);
  if (auth.startsWith('Basic ')) {
    const decoded = Buffer.from(auth.slice(6), 'base64').toString('utf8');
    return decoded.slice(decoded.indexOf(':') + 1);
  }
  return undefined;
}

/** Compares digests so neither length nor content leaks through timing. */
export function tokenMatches(expected: string | undefined, given: string | undefined): boolean {
  if (!expected || !given) return false;
  return timingSafeEqual(digest(expected), digest(given));
}
