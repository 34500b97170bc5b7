// The console's session cookie. Pure. The cookie carries an expiry, a random session id and an
// HMAC over both, keyed by a key derived from ADMIN_TOKEN: the token itself never leaves the
// server, and changing the token ends every session.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'crmr_console';
export const SESSION_TTL_MS = 12 * 3600_000;

export interface ConsoleSession {
  id: string;
  expiresAt: number;
}

export function sessionKey(adminToken: string): Buffer {
  return createHmac('sha256', adminToken).update('crm-rules console session key v1').digest();
}

const mac = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

export function issueSession(key: Buffer, nowMs: number, ttlMs = SESSION_TTL_MS): string {
  const payload = `${nowMs + ttlMs}.${randomBytes(12).toString('base64url')}`;
  return `${payload}.${mac(key, payload)}`;
}

export function verifySession(key: Buffer, cookie: string | undefined, nowMs: number): ConsoleSession | null {
  if (!cookie) return null;
  const parts = cookie.split('.');
  if (parts.length !== 3) return null;
  const [expires, id, signature] = parts;
  const expected = Buffer.from(mac(key, `${expires}.${id}`));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const expiresAt = Number(expires);
  if (!Number.isFinite(expiresAt) || expiresAt <= nowMs) return null;
  return { id, expiresAt };
}

/**
 * State-changing requests must come from the console's own pages: the browser says so in
 * Sec-Fetch-Site, or (older browsers) in an Origin matching the Host. Neither header: not a
 * browser request made by another site (SameSite=Strict already keeps the cookie off those).
 */
export function isSameOrigin(headers: Record<string, string | string[] | undefined>): boolean {
  const site = headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin' || site === 'none';
  const origin = headers['origin'];
  if (typeof origin !== 'string') return true;
  try {
    return new URL(origin).host === headers['host'];
  } catch {
    return false;
  }
}
