// Wrong admin tokens at the console login, against a real engine and Redis: the wait per address
// grows (stepped through with the throttle's clock frozen, no sleeping), parallel attempts cannot
// slip through, each refusal is counted, logged without the token and alerted in bursts. Also the
// security headers of Bull Board, the other page an operator's browser opens.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LoginThrottle } from '../../src/console/auth/login-throttle.service';
import { ADMIN_TOKEN, Harness, startHarness } from '../support/engine-harness';
import { postLogin } from './console-login';
import { capturedLogging, LogCapture } from './log-capture';

const WRONG = 'wrong-token-7f3e9a1c5b2d4e6f8a0b1c2d3e4f5a6b';

describe('console login throttle and Bull Board headers', () => {
  let h: Harness;
  let throttle: LoginThrottle;
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
    throttle = h.app.get(LoginThrottle);
    throttle.now = () => clock;
  });
  afterAll(async () => {
    await h?.stop();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  const failures = async () => {
    const text = await (await fetch(`${h.url}/metrics`)).text();
    const count = (reason: string) =>
      Number(
        new RegExp(`crmr_console_login_failures_total\\{reason="${reason}"\\} (\\d+)`).exec(text)?.[1] ?? 0,
      );
    return { wrongToken: count('wrong_token'), throttled: count('throttled') };
  };

  it('lets three typos through, then doubles the wait from 250 ms; the right token clears it', async () => {
    for (let i = 0; i < 4; i++) expect((await postLogin(h.url, WRONG)).status).toBe(401);
    // Each wait: refused 1 ms before it ends (even with the right token), checked once it has.
    for (const wait of [250, 500, 1_000, 2_000, 4_000]) {
      clock += wait - 1;
      const early = await postLogin(h.url, ADMIN_TOKEN);
      expect({ status: early.status, retryAfter: early.retryAfter }).toEqual({
        status: 429,
        retryAfter: '1',
      });
      expect(early.body).toContain('Too many wrong tokens from this address');
      clock += 1;
      expect((await postLogin(h.url, WRONG)).status).toBe(401);
    }
    expect(await failures()).toEqual({ wrongToken: 9, throttled: 5 });
    clock += 8_000;
    expect((await postLogin(h.url, ADMIN_TOKEN)).status).toBe(303);
    // Cleared: the next typo is free again.
    expect((await postLogin(h.url, WRONG)).status).toBe(401);
    expect((await postLogin(h.url, WRONG)).status).toBe(401);
    expect((await postLogin(h.url, ADMIN_TOKEN)).status).toBe(303);
  });

  it('counts parallel attempts before checking any: 40 at once, 4 checked', async () => {
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
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatch(
      /10 wrong admin tokens in a row at the console login from (::ffff:)?127\.0\.0\.1/,
    );
    const text = logs.text();
    expect(text).toMatch(
      /console login from \S+ refused: wrong admin token \(10 in a row, next try in 16000 ms\)/,
    );
    expect(text).toMatch(/console login from \S+ refused unchecked: 4 wrong token\(s\) in a row/);
    expect(text).not.toContain(WRONG);
    expect(text).not.toContain(ADMIN_TOKEN);
    expect(alerts.join('\n')).not.toContain(WRONG);
  });

  it("serves Bull Board with the console's security headers, refused or not", async () => {
    const basic = `Basic ${Buffer.from(`admin:${ADMIN_TOKEN}`).toString('base64')}`;
    const answers = await Promise.all([
      fetch(`${h.url}/admin/queues`),
      fetch(`${h.url}/admin/queues`, { headers: { authorization: basic } }),
      fetch(`${h.url}/admin/queues/api/queues`, { headers: { authorization: basic } }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([401, 200, 200]);
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
    const asset = await fetch(`${h.url}/admin/queues/${script}`, { headers: { authorization: basic } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('x-frame-options')).toBe('DENY');
  });
});
