// Debian's Chromium driven by playwright-core (its own browser download is not reachable here;
// `apt-get install chromium`, which scripts/setup.js does when it can).
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ADMIN_TOKEN } from '../../support/engine-harness';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: run \`apt-get install -y chromium\` (or set CHROMIUM_PATH)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function logIn(page: Page, engineUrl: string, token = ADMIN_TOKEN): Promise<void> {
  await page.goto(`${engineUrl}/console`);
  await page.waitForURL(/\/console\/login$/);
  await page.fill('input[name=token]', token);
  await page.click('#token-login button[type=submit]');
  await page.waitForURL(new RegExp(`${engineUrl}/console$`));
}

/** With CONSOLE_SCREENSHOTS=<dir> (e.g. docs/console) the tests save each page they visit. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.CONSOLE_SCREENSHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}

/**
 * Every session and CSRF value the browser was given or sent in `context`: the cookies set by the
 * engine (raw and decoded), the CSRF field of each form posted and each X-CSRF-Token header. The
 * browser tests look for each of them in the engine's logs.
 */
export function watchSessionValues(context: BrowserContext): () => Promise<string[]> {
  const seen = new Set<string>();
  const pending: Promise<unknown>[] = [];
  const add = (value: string | null | undefined) => {
    if (!value) return;
    seen.add(value);
    seen.add(decodeURIComponent(value));
  };
  const fromSetCookie = (header: string | null) => {
    for (const line of (header ?? '').split('\n')) {
      const m = /^(crmr_console(?:_csrf)?)=([^;]*)/.exec(line);
      if (m) add(m[2]);
    }
  };
  context.on('request', (req) => {
    add(new URLSearchParams(req.postData() ?? '').get('_csrf'));
    pending.push(req.headerValue('x-csrf-token').then(add, () => undefined));
    // Redirects (the login's 303 sets the session cookie) end in a request of their own.
    const redirected = req.redirectedFrom();
    if (redirected)
      pending.push(
        redirected
          .response()
          .then((r) => r?.headerValue('set-cookie'))
          .then(
            (h) => fromSetCookie(h ?? null),
            () => undefined,
          ),
      );
  });
  context.on('response', (res) => {
    pending.push(res.headerValue('set-cookie').then(fromSetCookie, () => undefined));
  });
  return async () => {
    await Promise.all(pending);
    const cookies = await context.cookies().catch(() => []); // a closed context told its cookies already
    for (const cookie of cookies) if (cookie.name.startsWith('crmr_console')) add(cookie.value);
    return [...seen];
  };
}
