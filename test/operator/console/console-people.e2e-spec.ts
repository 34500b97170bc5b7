// People in a real browser (Chromium) against a real OpenID Connect provider started here
// (oidc-provider in its own process, test/support/oidc-provider-server.mjs): Vera signs in as a viewer
// and sees no pause button, and her POST to pause is refused 403 anyway; Otto signs in as an
// operator, pauses, and the audit row names him; a local account logs in with its password; a
// logout ends the session on the server, and disabling a user ends theirs at once.
import type { Browser, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { admin, Harness, startHarness } from '../../support/engine-harness';
import { OIDC_CLIENT, providerPort, startProvider, type RunningProvider } from '../../support/oidc-provider';
import { createUser } from '../../support/users';
import { launchBrowser } from './browser';

const RULE = ['rule: tag-on-update', 'on: contact.updated', 'do:', '  - add-tag: touched', ''].join('\n');

describe('people: single sign-on, roles and local accounts in a real browser', () => {
  let h: Harness;
  let provider: RunningProvider;
  let browser: Browser;

  beforeAll(async () => {
    const port = await providerPort();
    [h, browser] = await Promise.all([
      startHarness({
        rules: { 'tag.yaml': RULE },
        subscribe: false,
        env: {
          RULES_WATCH: 'false',
          OIDC_ISSUER: `http://127.0.0.1:${port}`,
          OIDC_CLIENT_ID: OIDC_CLIENT.id,
          OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
          OIDC_ALLOW_HTTP_ISSUER: 'true',
          OIDC_SCOPES: 'openid email profile groups',
          OIDC_ROLE_MAP: 'crm-viewers=viewer,crm-operators=operator',
        },
      }),
      launchBrowser(),
    ]);
    provider = await startProvider(port, `${h.url}/console/login/oidc/callback`);
  });
  afterAll(async () => {
    await browser?.close();
    await provider?.stop();
    await h?.stop();
  });

  /** Through the provider's own login and consent pages, back to the console. */
  async function signIn(page: Page, account: string): Promise<void> {
    await page.goto(`${h.url}/console`);
    await page.waitForURL(/\/console\/login$/);
    await page.click('#sso');
    await page.waitForURL((url) => url.href.startsWith(provider.issuer));
    await page.fill('input[name=login]', account);
    await page.fill('input[name=password]', 'any');
    await page.click('button[type=submit]');
    await page.waitForURL((url) => url.href.startsWith(provider.issuer)); // consent
    await page.click('button[type=submit]');
    await page.waitForURL(new RegExp(`${h.url}/console$`));
  }

  /** A same-origin POST from the page, with the CSRF token of its logout form. */
  const postFromPage = async (page: Page, path: string, fields: Record<string, string>) => {
    const csrf = await page.locator('form.logout input[name=_csrf]').inputValue();
    return page.evaluate(
      async ([p, f]) => {
        const res = await fetch(p, { method: 'POST', body: new URLSearchParams(f) });
        return { status: res.status, text: await res.text() };
      },
      [path, { ...fields, _csrf: csrf }] as const,
    );
  };

  it('signs Vera in as a viewer: no pause button, and a POST to pause is refused 403', async () => {
    const page = await (await browser.newContext()).newPage();
    await signIn(page, 'vera');
    await expect(page.locator('#who').textContent()).resolves.toBe('Vera Viewer · viewer');
    await page.goto(`${h.url}/console/rules`);
    await page.locator('text=tag-on-update').first().waitFor();
    expect(await page.locator('button[value=pause]').count()).toBe(0);
    expect(await page.locator('#queue-board').count()).toBe(0);
    const refused = await postFromPage(page, '/console/rules/tag-on-update/control', { change: 'pause' });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('needs the operator role');
    const rows = await h.app.get(DataSource).query(`SELECT 1 FROM rule_control_audit`);
    expect(rows).toHaveLength(0);
  });

  it('signs Otto in as an operator, who pauses, and the audit row names him', async () => {
    const page = await (await browser.newContext()).newPage();
    await signIn(page, 'otto');
    await page.goto(`${h.url}/console/rules`);
    await page.locator('button[value=pause]').first().click();
    await page.locator('button[value=resume]').first().waitFor();
    const [row] = await h.app
      .get(DataSource)
      .query(
        `SELECT actor, change FROM rule_control_audit WHERE rule_id = 'tag-on-update' ORDER BY at DESC LIMIT 1`,
      );
    const [otto] = await h.app
      .get(DataSource)
      .query(`SELECT id FROM users WHERE email = 'otto.operator@example.test'`);
    expect(row).toEqual({
      change: 'pause',
      actor: `Otto Operator <otto.operator@example.test> (user ${otto.id})`,
    });
  });

  it('refuses a provider account that no mapping gives a role', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${h.url}/console/login`);
    await page.click('#sso');
    await page.fill('input[name=login]', 'nora');
    await page.fill('input[name=password]', 'any');
    await page.click('button[type=submit]');
    await page.click('button[type=submit]');
    await page.getByRole('alert').filter({ hasText: 'no role in this console' }).waitFor();
  });

  it('logs a local account in; logout and disabling end sessions on the server', async () => {
    const dana = await createUser(h, 'admin', 'Dana Admin');
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${h.url}/console/login`);
    await page.fill('input[name=email]', dana.email);
    await page.fill('input[name=password]', dana.password);
    await page.click('#local-login button[type=submit]');
    await page.waitForURL(new RegExp(`${h.url}/console$`));
    await expect(page.locator('#who').textContent()).resolves.toBe('Dana Admin · admin');
    // An admin reaches Bull Board from the console, on the same session, with no prompt.
    await page.click('#queue-board');
    await page.waitForURL(/\/admin\/queues/);
    expect((await page.goto(`${h.url}/admin/queues`))!.status()).toBe(200);

    const copy = (await context.cookies()).find((c) => c.name === 'crmr_console')!;
    await page.goto(`${h.url}/console`);
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/console\/login$/);
    const stale = await fetch(`${h.url}/console`, {
      redirect: 'manual',
      headers: { cookie: `crmr_console=${copy.value}` },
    });
    expect({ status: stale.status, location: stale.headers.get('location') }).toEqual({
      status: 303,
      location: '/console/login',
    });

    // Disabled while logged in: the next request finds no session.
    const vera = await h.app
      .get(DataSource)
      .query(`SELECT id FROM users WHERE email = 'vera.viewer@example.test'`);
    const veraPage = await (await browser.newContext()).newPage();
    await signIn(veraPage, 'vera');
    const disabled = await admin(h, 'POST', `/admin/users/${vera[0].id}/disable`);
    // Two: this one and her session of the first test.
    expect(disabled.body).toMatchObject({ disabled: true, sessionsEnded: 2 });
    await veraPage.goto(`${h.url}/console/rules`);
    await veraPage.waitForURL(/\/console\/login$/);
  });
});
