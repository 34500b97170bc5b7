// Console sessions held in Postgres, over plain HTTP against a real engine: logout and a token
// change end them, the idle and absolute limits are judged by the row's timestamps (backdated
// here, no waiting), expired rows are pruned, and the session values never reach the logs.
import { DataSource } from 'typeorm';
import { loadConfig } from '../../../src/runtime/config/load-config';
import { ConsoleAuth } from '../../../src/operator/console/auth/console-auth';
import { sessionIdHash } from '../../../src/operator/access/session-values';
import { startEngine, type RunningEngine } from '../../../src/engine';
import { RetentionService } from '../../../src/persistence/retention/retention.service';
import { Harness, startHarness } from '../../support/engine-harness';
import { consoleCookie, consolePage } from './console-login';
import { capturedLogging, LogCapture } from './log-capture';

const OTHER_TOKEN = '5be0f1c2d3a4e5f60718293a4b5c6d7e8f9012ab34cd56ef';

describe('console sessions (Postgres)', () => {
  let h: Harness;
  let db: DataSource;
  const logs = new LogCapture();
  const cookies: string[] = [];

  beforeAll(async () => {
    h = await startHarness({
      ...capturedLogging(logs, { RULES_WATCH: 'false', CONSOLE_SESSION_IDLE_MINUTES: '5' }, 'info'),
      subscribe: false,
    });
    db = h.app.get(DataSource);
  });
  afterAll(async () => h?.stop());

  async function login(): Promise<{ cookie: string; idHash: string }> {
    const cookie = await consoleCookie(h.url);
    cookies.push(cookie);
    return { cookie, idHash: sessionIdHash(cookie.split('=')[1]) };
  }
  /** Logout is a form post: it needs a page's CSRF token and its cookie. */
  async function logout(cookie: string): Promise<Response> {
    const page = await fetch(`${h.url}/console/rules`, { headers: { cookie } });
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())![1];
    const csrfCookie = page.headers.getSetCookie().find((c) => c.startsWith('crmr_console_csrf='))!;
    const csrfCookieValue = csrfCookie.split(';')[0].split('=')[1];
    cookies.push(csrf, csrfCookieValue, decodeURIComponent(csrfCookieValue));
    return fetch(`${h.url}/console/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: `${cookie}; crmr_console_csrf=${csrfCookieValue}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ _csrf: csrf }).toString(),
    });
  }
  const row = async (idHash: string) =>
    (await db.query(`SELECT created_at, last_seen_at FROM console_sessions WHERE id_hash = $1`, [idHash]))[0];
  const backdate = (idHash: string, column: 'created_at' | 'last_seen_at', minutes: number) =>
    db.query(`UPDATE console_sessions SET ${column} = now() - make_interval(mins => $2) WHERE id_hash = $1`, [
      idHash,
      minutes,
    ]);
  const opens = async (cookie: string, engineUrl = h.url) => {
    const page = await consolePage(engineUrl, '/console/rules', cookie);
    if (page.status === 303) expect(page.location).toBe('/console/login');
    return page.status === 200;
  };

  it('keeps only a hash of the cookie id, and logout deletes the row so a copied cookie stops working', async () => {
    const { cookie, idHash } = await login();
    expect(await row(idHash)).toBeDefined();
    const stored = JSON.stringify(await db.query(`SELECT * FROM console_sessions`));
    expect(stored).not.toContain(cookie.split('=')[1]);
    expect(await opens(cookie)).toBe(true);

    expect((await logout(cookie)).status).toBe(303);
    expect(await row(idHash)).toBeUndefined();
    expect(await opens(cookie)).toBe(false);
  });

  it('ends a live stream opened before logout', async () => {
    h.app.get(ConsoleAuth).streamCheckMs = 20;
    const { cookie } = await login();
    const stream = await fetch(`${h.url}/console/stream/overview`, { headers: { cookie } });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    expect((await reader.read()).done).toBe(false); // a first sample
    expect((await logout(cookie)).status).toBe(303);
    let ended = false;
    while (!ended) ended = (await reader.read()).done;
    expect((await fetch(`${h.url}/console/stream/overview`, { headers: { cookie } })).status).toBe(401);
  });

  it('ends a session idle longer than CONSOLE_SESSION_IDLE_MINUTES, and extends one used in time', async () => {
    const idle = await login();
    const used = await login();
    await backdate(idle.idHash, 'last_seen_at', 5);
    await backdate(used.idHash, 'last_seen_at', 3);
    const before = (await row(used.idHash)).last_seen_at as Date;

    expect(await opens(idle.cookie)).toBe(false);
    expect(await opens(used.cookie)).toBe(true);
    // Used: its last_seen_at moved to the request's time, so its 5 minutes start again.
    const after = (await row(used.idHash)).last_seen_at as Date;
    expect(after.getTime()).toBeGreaterThan(before.getTime() + 2 * 60_000);
  });

  it('ends a session at its absolute lifetime (12 h) however active', async () => {
    const old = await login();
    const young = await login();
    await backdate(old.idHash, 'created_at', 12 * 60);
    await backdate(young.idHash, 'created_at', 12 * 60 - 5);
    expect(await opens(old.cookie)).toBe(false);
    expect(await opens(young.cookie)).toBe(true);
  });

  it('refuses every session after ADMIN_TOKEN changes', async () => {
    const { cookie } = await login();
    const config = loadConfig({
      ...process.env,
      REDIS_URL: h.config.redis.url,
      DATABASE_URL: h.databaseUrl,
      REDIS_PREFIX: `${h.config.redis.prefix}-other-token`,
      CRM_BASE_URL: h.sandboxUrl,
      CRM_API_KEY: h.config.crm.apiKey,
      ROLE: 'api',
      PORT: '0',
      RULES_DIR: h.rulesDir,
      RULES_WATCH: 'false',
      ADMIN_TOKEN: OTHER_TOKEN,
      CONSOLE_COOKIE_SECURE: 'false', // the same cookie name, so only the fingerprint tells them apart
      LOG_LEVEL: 'error',
    });
    let other: RunningEngine | undefined;
    try {
      other = await startEngine(config, { quiet: true, subscribe: false });
      expect(await opens(cookie, other.url)).toBe(false);
      // The row is the same: the engine of the old token still accepts it; the new one refuses it
      // for its fingerprint, and its own logins work.
      expect(await opens(cookie)).toBe(true);
      expect(await opens(await consoleCookie(other.url, OTHER_TOKEN), other.url)).toBe(true);
    } finally {
      await other?.close();
    }
  });

  it('prunes expired sessions in the retention job and keeps live ones', async () => {
    const expired = await login();
    const live = await login();
    await backdate(expired.idHash, 'last_seen_at', 6);
    const result = await h.app.get(RetentionService).prune();
    expect(result.deleted.console_sessions).toBeGreaterThanOrEqual(1);
    expect(await row(expired.idHash)).toBeUndefined();
    expect(await row(live.idHash)).toBeDefined();
  });

  it('wrote request lines with the cookies redacted, and no session or CSRF value anywhere', () => {
    const text = logs.text();
    expect(text).toContain('"url":"/console/rules"');
    expect(text).toContain('"set-cookie":"[redacted]"');
    expect(text).toContain('"cookie":"[redacted]"');
    const values = cookies.map((c) => (c.includes('=') ? c.split('=')[1] : c));
    expect(values.length).toBeGreaterThanOrEqual(10);
    expect(logs.leaked(values)).toEqual([]);
  });
});
