// The console's login form spoken over plain HTTP (no browser): for tests that need a session
// cookie, or that count how the login answers wrong tokens.
import { ADMIN_TOKEN } from '../../support/engine-harness';

export interface LoginAnswer {
  status: number;
  /** `crmr_console=<id>`, ready for a Cookie header, when the login opened a session. */
  cookie?: string;
  retryAfter?: string;
  body: string;
}

export async function postLogin(engineUrl: string, token: string = ADMIN_TOKEN): Promise<LoginAnswer> {
  const res = await fetch(`${engineUrl}/console/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token }).toString(),
  });
  const session = res.headers.getSetCookie().find((c) => c.startsWith('crmr_console='));
  return {
    status: res.status,
    cookie: session?.split(';')[0],
    retryAfter: res.headers.get('retry-after') ?? undefined,
    body: await res.text(),
  };
}

/** A session cookie of a fresh login; fails loudly when the login does not open one. */
export async function consoleCookie(engineUrl: string, token: string = ADMIN_TOKEN): Promise<string> {
  const answer = await postLogin(engineUrl, token);
  if (answer.status !== 303 || !answer.cookie) throw new Error(`console login answered ${answer.status}`);
  return answer.cookie;
}

/** GET of a console page with a cookie, redirects not followed: 200, or 303 to the login page. */
export async function consolePage(
  engineUrl: string,
  path: string,
  cookie: string,
): Promise<{ status: number; location: string | null }> {
  const res = await fetch(`${engineUrl}${path}`, { redirect: 'manual', headers: { cookie } });
  await res.arrayBuffer();
  return { status: res.status, location: res.headers.get('location') };
}
