// Route × role: every route registered in the running engine's router, asked by nobody, a viewer,
// an operator, an admin (local accounts: console sessions for /console, their API tokens for the
// rest) and the bootstrap ADMIN_TOKEN. Each route's least role is read from its @MinRole: a
// route that declares none fails here, and a new route needs nothing but its decorator to be
// covered. A role below the route's is refused 403 (the console redirects or answers 401 without
// a session, the API 401 without a token); a role at or above it passes the guard.
import { MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { CredentialThrottle } from '../../../src/operator/access/credential-throttle.service';
import { MIN_ROLE } from '../../../src/operator/roles/min-role.decorator';
import { allows, ROLES, type Role, type RouteAccess } from '../../../src/operator/roles/roles';
import { ADMIN_TOKEN, Harness, startHarness } from '../../support/engine-harness';
import { createUser, sessionOf, type SessionClient, type TestUser } from '../../support/users';

interface Route {
  method: string;
  path: string;
  access: RouteAccess | undefined;
}

/** Every Nest handler with its method, full path and declared least role. */
function nestRoutes(h: Harness): Route[] {
  const reflector = new Reflector();
  const scanner = new MetadataScanner();
  const routes: Route[] = [];
  for (const module of h.app.get(ModulesContainer).values())
    for (const wrapper of module.controllers.values()) {
      const type = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (!type) continue;
      const base = String(Reflect.getMetadata(PATH_METADATA, type) ?? '');
      for (const name of scanner.getAllMethodNames(type.prototype)) {
        const handler = (type.prototype as Record<string, () => unknown>)[name];
        const sub = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
        if (sub === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
        const path = `/${[base, sub].filter((p) => p && p !== '/').join('/')}`.replace(/\/+/g, '/');
        routes.push({ method, path, access: reflector.getAllAndOverride(MIN_ROLE, [handler, type]) });
      }
    }
  return routes;
}

/** What Express itself has registered (method + path), Nest's and anything else's. */
function expressRoutes(h: Harness): string[] {
  const app = h.app.getHttpAdapter().getInstance() as {
    router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] };
  };
  return app.router.stack
    .filter((layer) => layer.route)
    .flatMap((layer) =>
      Object.keys(layer.route!.methods).map((m) => `${m.toUpperCase()} ${layer.route!.path}`),
    );
}

const concrete = (path: string) => path.replace(/:[A-Za-z]+/g, () => randomUUID());

describe('route × role', () => {
  let h: Harness;
  const users = {} as Record<Role, TestUser>;
  const sessions = {} as Record<Role | 'token', SessionClient>;

  beforeAll(async () => {
    h = await startHarness({ env: { RULES_WATCH: 'false' }, subscribe: false, quiet: true });
    for (const role of ROLES) users[role] = await createUser(h, role);
    for (const role of ROLES) sessions[role] = await sessionOf(h.url, users[role]);
    sessions.token = await sessionOf(h.url, ADMIN_TOKEN);
  });
  afterAll(() => h?.stop());

  it('finds a declared role on every route Express serves outside the docs', () => {
    const routes = nestRoutes(h);
    const undeclared = routes.filter((r) => !r.access).map((r) => `${r.method} ${r.path}`);
    expect(undeclared).toEqual([]);
    const nest = new Set(routes.map((r) => `${r.method} ${r.path}`));
    // Not handlers: Swagger's pages (their own gate, api-docs.ts), and the routes Nest registers for
    // middleware (`/{*path}` and the controllers' `base/`). Bull Board is a mounted router.
    const others = expressRoutes(h).filter(
      (r) => !nest.has(r) && !/ \/docs/.test(r) && !r.endsWith(' /{*path}') && !r.endsWith('/'),
    );
    expect(others).toEqual([]);
    expect(routes.length).toBeGreaterThan(30);
  });

  /** The answer of `who` to one route: a console session for /console, a token elsewhere. */
  async function ask(
    route: Route,
    who: Role | 'token' | 'nobody',
  ): Promise<{ status: number; body: string }> {
    const path = concrete(route.path);
    const abort = new AbortController();
    let res: Response;
    if (path.startsWith('/console')) {
      if (route.path === '/console/logout' && who !== 'nobody') {
        // Logging out ends the session: use one of its own.
        const own = await sessionOf(h.url, who === 'token' ? ADMIN_TOKEN : users[who]);
        res = await own.send(route.method, path, {}, abort.signal);
      } else if (who === 'nobody')
        res = await fetch(`${h.url}${path}`, {
          method: route.method,
          redirect: 'manual',
          signal: abort.signal,
        });
      else res = await sessions[who].send(route.method, path, {}, abort.signal);
    } else {
      const token = who === 'nobody' ? undefined : who === 'token' ? ADMIN_TOKEN : users[who].apiToken;
      res = await fetch(`${h.url}${path}`, {
        method: route.method,
        redirect: 'manual',
        signal: abort.signal,
        headers: {
          'content-type': 'application/json',
          ...(token ? { 'x-admin-token': token } : {}),
        },
        body: route.method === 'GET' ? undefined : '{}',
      });
    }
    // A live stream answers its headers and then stays open: its status is all we need.
    const body = res.headers.get('content-type')?.includes('event-stream') ? '' : await res.text();
    abort.abort();
    // An empty login form counts as a wrong credential: keep this client from being throttled.
    await h.app.get(CredentialThrottle).forget('127.0.0.1');
    return { status: res.status, body };
  }

  const refusedForRole = (a: { status: number; body: string }) =>
    a.status === 403 && a.body.includes('needs the');
  const refusedForNobody = (a: { status: number }) => [303, 401].includes(a.status);

  it('answers every route per role as its declaration says', async () => {
    const table: string[] = [];
    const wrong: string[] = [];
    for (const route of nestRoutes(h).sort((a, b) => a.path.localeCompare(b.path))) {
      const row: string[] = [];
      for (const who of ['nobody', ...ROLES, 'token'] as const) {
        const answer = await ask(route, who);
        const role: Role | undefined = who === 'nobody' ? undefined : who === 'token' ? 'admin' : who;
        const expected =
          route.access === 'public'
            ? 'pass'
            : !role
              ? 'nobody'
              : allows(role, route.access!)
                ? 'pass'
                : 'forbidden';
        // A public route's own refusals (a wrong login answers 401) are not the guard's.
        const got = refusedForRole(answer)
          ? 'forbidden'
          : route.access === 'public'
            ? 'pass'
            : !role && refusedForNobody(answer)
              ? 'nobody'
              : [401, 403].includes(answer.status) || (answer.status === 303 && !role)
                ? `refused ${answer.status}`
                : 'pass';
        row.push(`${who}:${answer.status}`);
        if (got !== expected)
          wrong.push(
            `${route.method} ${route.path} as ${who}: ${got} (${answer.status}), expected ${expected}`,
          );
      }
      table.push(`${route.method} ${route.path} [${route.access}] ${row.join(' ')}`);
    }
    expect(wrong).toEqual([]);
    expect(table.length).toBeGreaterThan(30);
  });

  it.each([
    ['POST', '/console/rules/:id/control', 'operator'],
    ['POST', '/console/failures/actions', 'operator'],
    ['POST', '/console/failures/uncertain', 'operator'],
    ['POST', '/console/failures/events', 'operator'],
    ['POST', '/console/rules/:id/run', 'operator'],
    ['POST', '/admin/events/:id/replay', 'operator'],
    ['POST', '/admin/actions/retry-dead', 'operator'],
    ['POST', '/admin/rules/:id/run', 'operator'],
    ['POST', '/admin/users', 'admin'],
    ['POST', '/admin/rules/reload', 'admin'],
    ['GET', '/admin/users', 'admin'],
    ['GET', '/metrics', 'viewer'],
    ['GET', '/health', 'public'],
  ])('pins %s %s to %s', (method, path, access) => {
    expect(nestRoutes(h).find((r) => r.method === method && r.path === path)?.access).toBe(access);
  });

  it('refuses a forced replay to an operator and lets an admin past the check', async () => {
    const id = randomUUID();
    const operator = await sessions.operator.send('POST', '/console/failures/events', {
      eventId: id,
      force: 'yes',
    });
    expect(operator.status).toBe(403);
    expect(await operator.text()).toContain('needs the admin role');
    const byAdmin = await sessions.admin.send('POST', '/console/failures/events', {
      eventId: id,
      force: 'yes',
    });
    expect(byAdmin.status).toBe(404); // past the role check: the event does not exist
    const api = await fetch(`${h.url}/admin/events/${id}/replay?force=true`, {
      method: 'POST',
      headers: { 'x-admin-token': users.operator.apiToken },
    });
    expect(api.status).toBe(403);
  });
});
