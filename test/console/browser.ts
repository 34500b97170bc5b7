// Debian's Chromium driven by playwright-core (its own browser download is not reachable here;
// `apt-get install chromium`, which scripts/setup.js does when it can).
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ADMIN_TOKEN } from '../support/engine-harness';

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
  await page.click('button[type=submit]');
  await page.waitForURL(new RegExp(`${engineUrl}/console$`));
}

/** With CONSOLE_SCREENSHOTS=<dir> (e.g. docs/console) the tests save each page they visit. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.CONSOLE_SCREENSHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}
