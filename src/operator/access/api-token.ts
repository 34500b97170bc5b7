// Per-user API tokens: 256 random bits with a recognisable prefix (so a leaked one is easy to
// grep for), shown once; the users table keeps only their SHA-256, looked up by equality (a
// 256-bit random value needs no slow hash: it cannot be guessed from its digest).
import { createHash, randomBytes } from 'node:crypto';

export const API_TOKEN_PREFIX = 'crmr_u_';

export function newApiToken(): string {
  return API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

export function apiTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function looksLikeApiToken(token: string): boolean {
  return (
    token.startsWith(API_TOKEN_PREFIX) && /^[A-Za-z0-9_-]{43}$/.test(token.slice(API_TOKEN_PREFIX.length))
  );
}
