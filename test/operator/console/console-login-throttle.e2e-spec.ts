// Wrong admin tokens at the console login, against a real engine and Redis: the wait per address
// grows (stepped through with the throttle's clock frozen, no sleeping), parallel attempts cannot
// slip through, each refusal is counted, logged without the token and alerted in bursts. Also the
// security headers of Bull Board, the other page an operator's browser opens, and who opens it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EngineMetrics } from '../../../src/operator/ops/engine-metrics';
import { CredentialThrottle } from '../../../src/operator/access/credential-throttle.service';
import { ADMIN_TOKEN, Harness, startHarness } from '../../support/engine-harness';
import { consoleCookie, postLogin } from './console-login';
import { capturedLogging, LogCapture } from './log-capture';

const WRONG = 'wrong-token-7f3e9a1c5b2d4e6f8a0b1c2d3e4f5a6b';

describe('console login throttle and Bull Board headers', () => {
  let h: Harness;
  let throttle: CredentialThrottle;
  let receiver: Server;
  const alerts: string[] = [];
  const logs = new LogCapture();
  let clock = 1_800_000_000_000;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        alerts.push(JSON.parse(body).text);
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const alertUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    h = await startHarness({
      ...capturedLogging(logs, { RULES_WATCH: 'false', ALERT_WEBHOOK_URL: alertUrl }, 'info'),
      subscribe: false,
    });
    throttle = h.app.get(CredentialThrottle);
    throttle.now = () => clock;
  });
  afterAll(async () => {
    await h?.stop();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  const failures = async () => {
    // Read in the process: /metrics takes a credential, and this client is the one being throttled.
    const text = await h.app.get(EngineMetrics).registry.metrics();
    const count = (reason: string) =>
      Number(
        new RegExp(`crmr_console_login_failures_total\\{reason="${reason}"\\} (\\d+)`).exec(text)?.[1] ?? 0,
      );
    return { wrongToken: count('wrong_token'), throttled: count('throttled') };
  };

  it('lets three typos through, then doubles the wait from 250 ms; the right token does not clear it', async () => {
    for (let i = 0; i < 4; i++) expect((await postLogin(h.url, WRONG)).status).toBe(401);
    // Each wait: refused 1 ms before it ends (even with the right token), checked once it has.
    for (const wait of [250, 500, 1_000, 2_000, 4_000]) {
      clock += wait - 1;
      const early = await postLogin(h.url, ADMIN_TOKEN);
      expect({ status: early.status, retryAfter: early.retryAfter }).toEqual({
        status: 429,
        retryAfter: '1',
      });
      expect(early.body).toContain('Too many wrong logins from this address');
      clock += 1;
      expect((await postLogin(h.url, WRONG)).status).toBe(401);
    }
    expect(await failures()).toEqual({ wrongToken: 9, throttled: 5 });
    clock += 8_000;
    expect((await postLogin(h.url, ADMIN_TOKEN)).status).toBe(303);
    // Not cleared: a good credential takes back only its own attempt, so the next typo waits 8 s
    // (a client holding one good credential cannot wipe its guesses at another).
    expect((await postLogin(h.url, WRONG)).status).toBe(401);
    expect((await postLogin(h.url, ADMIN_TOKEN)).status).toBe(429);
    clock += 16_000;
    expect((await postLogin(h.url, ADMIN_TOKEN)).status).toBe(303);
    await throttle.forget('127.0.0.1');
  });

  it('checks no more parallel attempts than could all be wrong for free: 40 at once, 4 checked', async () => {
    const before = await failures();
    const answers = await Promise.all(Array.from({ length: 40 }, () => postLogin(h.url, WRONG)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(4);
    expect(statuses.filter((s) => s === 429)).toHaveLength(36);
    const after = await failures();
    expect({
      wrong: after.wrongToken - before.wrongToken,
      throttled: after.throttled - before.throttled,
    }).toEqual({ wrong: 4, throttled: 36 });
  });

  it('alerts at ten failures in a row from one address, and logs each without the token', async () => {
    // 4 failures stand from the parallel burst; six more, each after its wait.
    for (const wait of [250, 500, 1_000, 2_000, 4_000, 8_000]) {
      clock += wait;
      expect((await postLogin(h.url, WRONG)).status).toBe(401);
    }
    // The first test's tenth failure alerted too (its count stood after the good login).
    expect(alerts).toHaveLength(2);
    expect(alerts[1]).toMatch(/10 wrong credentials in a row from 127\.0\.0\.1 \(last at console\)/);
    const text = logs.text();
    expect(text).toMatch(
      /credential at console from 127\.0\.0\.1 refused: wrong \(10 in a row, next try in 16000 ms\)/,
    );
    expect(text).toMatch(/credential at console from 127\.0\.0\.1 refused unchecked: 4 wrong in a row/);
    expect(text).not.toContain(WRONG);
    expect(text).not.toContain(ADMIN_TOKEN);
    expect(alerts.join('\n')).not.toContain(WRONG);
  });

  // Seen in CI (rules-from-git.e2e): a client with a few failures on record that read /health of
  // three processes at once got 429 with the right token, since every attempt counted as a failure
  // until checked. Now a client's credentials sent at once all get checked, in turn if need be.
  it('checks every correct credential sent at once, whatever failures the client has on record', async () => {
    await throttle.forget('127.0.0.1');
    const scrape = () =>
      fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }).then(
        (r) => r.status,
      );
    const burst = async (n: number) => (await Promise.all(Array.from({ length: n }, scrape))).sort();
    for (let i = 0; i < 2; i++) expect((await postLogin(h.url, WRONG)).status).toBe(401);
    expect(await burst(6)).toEqual([200, 200, 200, 200, 200, 200]);
    // Three on record: one check at a time, the others wait their turn.
    expect((await postLogin(h.url, WRONG)).status).toBe(401);
    expect(await burst(6)).toEqual([200, 200, 200, 200, 200, 200]);
    // Guesses sent at once still cost what guesses in a row do: the first earns a wait, the rest meet it.
    const guesses = await Promise.all(Array.from({ length: 6 }, () => postLogin(h.url, WRONG)));
    expect(guesses.map((g) => g.status).sort()).toEqual([401, 429, 429, 429, 429, 429]);
    await throttle.forget('127.0.0.1');
  });

  it("serves Bull Board to an admin's console session or token, with the console's security headers", async () => {
    await throttle.forget('127.0.0.1');
    const basic = `Basic ${Buffer.from(`admin:${ADMIN_TOKEN}`).toString('base64')}`;
    const cookie = await consoleCookie(h.url);
    const answers = await Promise.all([
      fetch(`${h.url}/admin/queues`),
      fetch(`${h.url}/admin/queues`, { headers: { cookie } }),
      fetch(`${h.url}/admin/queues/api/queues`, { headers: { 'x-admin-token': ADMIN_TOKEN } }),
      fetch(`${h.url}/admin/queues`, { headers: { authorization: basic } }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([401, 200, 200, 401]);
    expect(answers.map((a) => a.headers.get('www-authenticate'))).toEqual([null, null, null, null]);
    for (const res of answers) {
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('referrer-policy')).toBe('same-origin');
    }
    const page = await answers[1].text();
    const script = /<script defer src="([^"]+)"/.exec(page)![1];
    const asset = await fetch(`${h.url}/admin/queues/${script}`, { headers: { cookie } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('x-frame-options')).toBe('DENY');
  });
});
