// Issue 30, "ways in": every credential at every door goes through one throttle keyed by client,
// wrong ones are counted per door, /metrics and the API docs need a credential, /health's body does
// not depend on the token, and the session cookie is Secure and __Host- outside the local demo.
import { randomBytes } from 'node:crypto';
import { CredentialThrottle } from '../../src/operator/access/credential-throttle.service';
import { EngineMetrics } from '../../src/operator/ops/engine-metrics';
import { ADMIN_TOKEN, Harness, startHarness } from '../support/engine-harness';

const WRONG = 'wrong-token-0f1e2d3c4b5a69788796a5b4c3d2e1f0';

describe('one door, one throttle', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      env: { RULES_WATCH: 'false', TRUST_PROXY: 'loopback' },
      subscribe: false,
      quiet: true,
    });
  });
  afterAll(() => h?.stop());
  afterEach(() => h.app.get(CredentialThrottle).forget('127.0.0.1'));

  const failures = async (door: string, reason: string) => {
    const text = await h.app.get(EngineMetrics).registry.metrics();
    return Number(
      new RegExp(`crmr_credential_failures_total\\{door="${door}",reason="${reason}"\\} (\\d+)`).exec(
        text,
      )?.[1] ?? 0,
    );
  };

  it('the login throttle covers only the console form: 12 wrong tokens across the admin API, /health, Bull Board and /metrics are throttled', async () => {
    const doors: { path: string; headers: Record<string, string> }[] = [
      { path: '/admin/rules', headers: { 'x-admin-token': WRONG } },
      { path: '/health?detail=full', headers: { authorization: `Bearer ${WRONG}` } },
      { path: '/admin/queues', headers: { 'x-admin-token': WRONG } },
      { path: '/metrics', headers: { authorization: `Bearer ${WRONG}` } },
    ];
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const door = doors[i % doors.length];
      statuses.push((await fetch(`${h.url}${door.path}`, { headers: door.headers })).status);
    }
    // One count across the doors: three free failures, then the wait refuses unchecked.
    expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401]);
    expect(statuses.slice(4).every((s) => s === 429)).toBe(true);
    // Even the right token waits out the client's wait.
    const right = await fetch(`${h.url}/admin/rules`, { headers: { 'x-admin-token': ADMIN_TOKEN } });
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await failures('admin', 'wrong')).toBeGreaterThanOrEqual(1);
    expect(await failures('health', 'wrong')).toBeGreaterThanOrEqual(1);
    expect(await failures('queue_board', 'wrong')).toBeGreaterThanOrEqual(1);
    expect(await failures('metrics', 'wrong')).toBeGreaterThanOrEqual(1);
    expect(await failures('admin', 'throttled')).toBeGreaterThanOrEqual(1);
  });

  it('the throttle keys on req.ip with no trust-proxy setting: behind a trusted proxy each client has its own count', async () => {
    const asClient = (ip: string, token: string) =>
      fetch(`${h.url}/admin/rules`, { headers: { 'x-admin-token': token, 'x-forwarded-for': ip } });
    for (let i = 0; i < 6; i++) await asClient('203.0.113.9', WRONG);
    expect((await asClient('203.0.113.9', ADMIN_TOKEN)).status).toBe(429);
    // Another client behind the same proxy is not locked out by the first.
    expect((await asClient('198.51.100.4', ADMIN_TOKEN)).status).toBe(200);
    // IPv6 by its /64: another address of the same /64 shares the count, another /64 does not.
    for (let i = 0; i < 6; i++) await asClient('2001:db8:5:6::1', WRONG);
    expect((await asClient('2001:db8:5:6::ffff', ADMIN_TOKEN)).status).toBe(429);
    expect((await asClient('2001:db8:5:7::1', ADMIN_TOKEN)).status).toBe(200);
    await h.app.get(CredentialThrottle).forget('203.0.113.9');
    await h.app.get(CredentialThrottle).forget('2001:db8:5:6::1');
  });

  it('/metrics, /docs and /docs-json need no authentication: now each needs a credential', async () => {
    for (const path of ['/metrics', '/docs', '/docs-json']) {
      expect({ path, status: (await fetch(`${h.url}${path}`)).status }).toEqual({ path, status: 401 });
      const ok = await fetch(`${h.url}${path}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect({ path, status: ok.status }).toEqual({ path, status: 200 });
    }
  });

  it('/health: the body differs when the token is right; now it is the same for a right, a wrong and no token', async () => {
    const bodies = await Promise.all(
      [
        {} as Record<string, string>,
        { authorization: `Bearer ${ADMIN_TOKEN}` },
        { authorization: `Bearer ${WRONG}` },
        { 'x-admin-token': ADMIN_TOKEN },
      ].map(async (headers) => {
        const res = await fetch(`${h.url}/health`, { headers });
        return `${res.status} ${await res.text()}`;
      }),
    );
    expect(new Set(bodies)).toEqual(new Set(['200 {"status":"ok"}']));
    // The detail level is asked for, and takes a credential.
    expect((await fetch(`${h.url}/health?detail=full`)).status).toBe(401);
    const detail = await fetch(`${h.url}/health?detail=full`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(Object.keys((await detail.json()) as object)).toEqual(expect.arrayContaining(['status', 'info']));
  });
});

describe('the session cookie outside the local demo', () => {
  let h: Harness;
  beforeAll(async () => {
    // PUBLIC_URL plain http, as compose sets it: Secure must not depend on it.
    h = await startHarness({
      env: {
        RULES_WATCH: 'false',
        NODE_ENV: 'production',
        WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
        PUBLIC_URL: 'http://api:3000',
      },
      subscribe: false,
      quiet: true,
    });
  });
  afterAll(() => h?.stop());

  it('the session cookie is Secure only when PUBLIC_URL is https, no __Host- prefix: now both by default', async () => {
    const res = await fetch(`${h.url}/console/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: ADMIN_TOKEN }).toString(),
    });
    expect(res.status).toBe(303);
    const session = res.headers.getSetCookie().find((c) => c.startsWith('__Host-crmr_console='));
    expect(session).toMatch(/; Path=\/; /);
    expect(session).toMatch(/; Secure/);
    expect(session).toMatch(/; HttpOnly/);
    expect(session).toMatch(/; SameSite=Strict/);
    expect(session).not.toMatch(/Domain=/i);
    // The API docs are off in production.
    expect(
      (await fetch(`${h.url}/docs-json`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).status,
    ).toBe(404);
  });
});
