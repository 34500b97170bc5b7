// Pure. What the browser carries from the console to the provider and back: state, nonce and the
// PKCE verifier, in a short-lived cookie signed with a key derived from ADMIN_TOKEN, so it cannot
// be forged, and checked against the callback's state by openid-client.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface OidcPending {
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
}

export const OIDC_COOKIE = 'crmr_oidc';
export const OIDC_PENDING_MS = 10 * 60_000;

const mac = (key: Buffer, body: string) =>
  createHmac('sha256', key).update(`oidc-pending v1 ${body}`).digest();

export function sealPending(key: Buffer, pending: OidcPending, now = Date.now()): string {
  const body = Buffer.from(JSON.stringify({ ...pending, exp: now + OIDC_PENDING_MS })).toString('base64url');
  return `${body}.${mac(key, body).toString('base64url')}`;
}

export function openPending(key: Buffer, value: unknown, now = Date.now()): OidcPending | undefined {
  if (typeof value !== 'string' || value.length > 4096) return undefined;
  const [body, sig] = value.split('.');
  if (!body || !sig) return undefined;
  const given = Buffer.from(sig, 'base64url');
  const expected = mac(key, body);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as OidcPending & { exp: number };
    if (typeof p.exp !== 'number' || p.exp < now) return undefined;
    const fields = [p.state, p.nonce, p.verifier, p.redirectUri];
    if (!fields.every((f) => typeof f === 'string')) return undefined;
    return { state: p.state, nonce: p.nonce, verifier: p.verifier, redirectUri: p.redirectUri };
  } catch {
    return undefined;
  }
}
