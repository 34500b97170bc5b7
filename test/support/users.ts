// People for the access tests: local accounts made through the admin API with the bootstrap
// ADMIN_TOKEN, each with an API token, and a console session of theirs spoken over plain HTTP
// (cookie jar, the CSRF token of the page's logout form).
import type { Role } from '../../src/operator/roles/roles';
import { admin, type Harness } from './engine-harness';

export interface TestUser {
  id: string;
  email: string;
  displayName: string;
  password: string;
  role: Role;
  apiToken: string;
}

export async function createUser(h: Harness, role: Role, name = `${role} person`): Promise<TestUser> {
  const email = `${name.replace(/\W+/g, '.')}.${Date.now() % 1e6}@example.test`.toLowerCase();
  const password = `pw-${role}-correct-horse-7`;
  const created = await admin(h, 'POST', '/admin/users', { email, displayName: name, role, password });
  if (created.status !== 201)
    throw new Error(`user not created: ${created.status} ${JSON.stringify(created.body)}`);
  const token = await admin(h, 'POST', `/admin/users/${created.body.id}/api-token`);
  return { id: created.body.id, email, displayName: name, password, role, apiToken: token.body.token };
}

export interface SessionClient {
  cookie: string;
  csrf: string;
  /** A request with the session's cookie (and, for a POST, the CSRF field and the page's Origin). */
  send(
    method: string,
    path: string,
    fields?: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<Response>;
}

/** A console session of the admin token (a string) or a local account. */
export async function sessionOf(
  url: string,
  who: string | { email: string; password: string },
): Promise<SessionClient> {
  const fields: Record<string, string> =
    typeof who === 'string' ? { token: who } : { email: who.email, password: who.password };
  const login = await fetch(`${url}/console/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url },
    body: new URLSearchParams(fields).toString(),
  });
  if (login.status !== 303) throw new Error(`console login answered ${login.status}`);
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
  };
  keep(login);
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const page = await fetch(`${url}/console`, { headers: { cookie: cookieHeader() } });
  keep(page);
  const csrf = (/name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '')
    .replace(/&#x3D;/g, '=')
    .replace(/&#x2F;/g, '/')
    .replace(/&amp;/g, '&');
  const client: SessionClient = {
    cookie: cookieHeader(),
    csrf,
    send: (method, path, extra = {}, signal) =>
      fetch(`${url}${path}`, {
        method,
        redirect: 'manual',
        signal,
        headers: {
          cookie: cookieHeader(),
          ...(method === 'GET' ? {} : { origin: url, 'content-type': 'application/x-www-form-urlencoded' }),
        },
        body: method === 'GET' ? undefined : new URLSearchParams({ ...extra, _csrf: csrf }).toString(),
      }),
  };
  return client;
}
