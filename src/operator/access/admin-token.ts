// Admin authentication, pure and timing-safe. Who may present the token how:
// - the X-Admin-Token header: every admin route (the only way for a state-changing one);
// - a Bearer token: read-only admin routes (scripts, the plan CLI);
// - HTTP basic auth (token as password): Bull Board's pages only, so a browser can open them.
// A state-changing request must also not come from another site (Origin / Sec-Fetch-Site), so a
// browser that holds basic-auth credentials cannot be made to change anything cross-site.
import { createHash, timingSafeEqual } from 'node:crypto';

export type Headers = Record<string, string | string[] | undefined>;
export type TokenSource = 'header' | 'bearer' | 'basic';
export interface PresentedToken {
  token: string;
  source: TokenSource;
}

export interface AdminRequest {
  method: string;
  headers: Headers;
}

export type AdminDecision = { ok: true } | { ok: false; status: 401 | 403 | 503; message: string };

const digest = (s: string) => createHash('sha256').update(s).digest();
const header = (headers: Headers, name: string) => {
  const v = headers[name];
  return typeof v === 'string' ? v : undefined;
};

export function presentedToken(headers: Headers): PresentedToken | undefined {
  const direct = header(headers, 'x-admin-token');
  if (direct) return { token: direct, source: 'header' };
  const auth = header(headers, 'authorization');
  if (!auth) return undefined;
  if (auth.startsWith('Bearer ')) return { token: auth.slice(7), source: 'bearer' };
  if (auth.startsWith('Basic ')) {
    const decoded = Buffer.from(auth.slice(6), 'base64').toString('utf8');
    return { token: decoded.slice(decoded.indexOf(':') + 1), source: 'basic' };
  }
  return undefined;
}

/** Compares digests so neither length nor content leaks through timing. */
export function tokenMatches(expected: string | undefined, given: string | undefined): boolean {
  if (!expected || !given) return false;
  return timingSafeEqual(digest(expected), digest(given));
}

export function isStateChanging(method: string): boolean {
  return !['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase());
}

/**
 * False when the browser says the request comes from another site. Requests without these
 * headers (curl, scripts, the CLI) are not browsers' and pass.
 */
export function fromSameSite(headers: Headers): boolean {
  const site = header(headers, 'sec-fetch-site');
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = header(headers, 'origin');
  if (origin === undefined) return true;
  const host = header(headers, 'x-forwarded-host') ?? header(headers, 'host');
  try {
    return host !== undefined && new URL(origin).host === host;
  } catch {
    return false; // "null" or garbage
  }
}

/** The whole rule for one request; `allowBasic` only for Bull Board's pages. */
export function checkAdminRequest(
  req: AdminRequest,
  expected: string | undefined,
  opts: { allowBasic: boolean },
): AdminDecision {
  if (!expected)
    return { ok: false, status: 503, message: 'admin API disabled: set ADMIN_TOKEN to enable it' };
  const presented = presentedToken(req.headers);
  if (!presented || !tokenMatches(expected, presented.token))
    return { ok: false, status: 401, message: 'admin token missing or wrong' };
  const changing = isStateChanging(req.method);
  if (presented.source === 'basic' && !opts.allowBasic)
    return { ok: false, status: 401, message: 'basic auth is for the queue board only: send X-Admin-Token' };
  if (changing && presented.source === 'bearer')
    return {
      ok: false,
      status: 401,
      message: 'state-changing admin calls take the X-Admin-Token header only',
    };
  if (changing && !fromSameSite(req.headers))
    return { ok: false, status: 403, message: 'cross-site admin request refused (Origin / Sec-Fetch-Site)' };
  return { ok: true };
}
