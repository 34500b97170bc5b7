// The console's session values. Pure. The cookie carries an opaque random id and nothing else;
// the server keeps the session as a row (console-sessions.repository.ts) under a hash of that id,
// so a database dump holds no usable cookie. Each row also keeps a fingerprint of ADMIN_TOKEN:
// after a token change no earlier session matches and every one of them ends.
import { createHash, createHmac, randomBytes } from 'node:crypto';

export const SESSION_COOKIE = 'crmr_console';
export const CSRF_COOKIE = 'crmr_console_csrf';

/** The CSRF tokens' secret (csrf-csrf): derived from the token, never the token itself. */
export function sessionKey(adminToken: string): Buffer {
  return createHmac('sha256', adminToken).update('crm-rules console session key v1').digest();
}

/** 256 random bits, base64url: what the cookie carries. */
export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

/** The row's key: a session id cannot be read back from it. */
export function sessionIdHash(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex');
}

/** Names the admin token a session was opened with, without revealing it. */
export function tokenFingerprint(adminToken: string): string {
  return createHmac('sha256', adminToken).update('crm-rules console token fingerprint v1').digest('hex');
}

/** A cookie value worth looking up: the shape newSessionId() makes, nothing longer. */
export function isWellFormedSessionId(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);
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
