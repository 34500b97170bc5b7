// In a real browser: logging out ends the session on the server, so a copy of the cookie taken
// before (set into a fresh browser context) leads to the login page; Bull Board still renders
// under its security headers; and the engine's logs of the whole file hold no session or CSRF value.
import type { Browser } from 'playwright-core';
import { ADMIN_TOKEN, Harness, startHarness } from '../../support/engine-harness';
import { launchBrowser, logIn, watchSessionValues } from './browser';
import { capturedLogging, LogCapture } from './log-capture';

describe('console logout and Bull Board in a real browser', () => {
  let h: Harness;
  let browser: Browser;
  const logs = new LogCapture();
  const sessionValues: (() => Promise<string[]>)[] = [];
  const copiedValues: string[] = [];

  beforeAll(async () => {
    [h, browser] = await Promise.all([
      startHarness({ ...capturedLogging(logs, { RULES_WATCH: 'false' }), subscribe: false }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await h?.stop();
  });

  it('sends a copy of the cookie taken before logout to the login page', async () => {
    const context = await browser.newContext();
    sessionValues.push(watchSessionValues(context));
    const page = await context.newPage();
    await logIn(page, h.url);
    await page.goto(`${h.url}/console/failures`);
    const copied = (await context.cookies()).filter((c) => c.name.startsWith('crmr_console'));
    expect(copied.map((c) => c.name).sort()).toEqual(['crmr_console', 'crmr_console_csrf']);
    copiedValues.push(...copied.map((c) => decodeURIComponent(c.value)));

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/console\/login$/);
    expect((await context.cookies()).find((c) => c.name === 'crmr_console')).toBeUndefined();

    const thief = await browser.newContext();
    sessionValues.push(watchSessionValues(thief));
    await thief.addCookies(copied);
    const stolen = await thief.newPage();
    for (const path of ['/console', '/console/failures', '/console/rules']) {
      await stolen.goto(`${h.url}${path}`);
      await stolen.waitForURL(/\/console\/login$/);
    }
    await stolen.locator('input[name=token]').waitFor();
    await thief.close();
    await context.close();
  });

  it('renders Bull Board under its Content-Security-Policy, refusing only the outside font', async () => {
    // Opened on the console's session (the admin token's: an admin), with no basic-auth prompt.
    const context = await browser.newContext();
    sessionValues.push(watchSessionValues(context));
    const page = await context.newPage();
    await logIn(page, h.url, ADMIN_TOKEN);
    const refused: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy/.test(m.text())) refused.push(m.text());
    });
    const res = await page.goto(`${h.url}/admin/queues`);
    expect(res!.headers()['x-frame-options']).toBe('DENY');
    await page.getByText('actions', { exact: false }).first().waitFor();
    expect(refused.filter((r) => !r.includes('fonts.googleapis.com'))).toEqual([]);
    await context.close();
  });

  it('left no session id or CSRF value in the engine logs of the whole file', async () => {
    const values = (await Promise.all(sessionValues.map((v) => v()))).flat();
    // The watch saw at least the session id and the CSRF token (its cookie holds the form's token).
    expect(values).toEqual(expect.arrayContaining(copiedValues));
    expect(logs.text()).toContain('"set-cookie":"[redacted]"');
    expect(logs.leaked(values)).toEqual([]);
  });
});
