import type { Browser, BrowserContext, Page } from 'playwright-core';
import { CrmGateway } from '../../src/crm/crm-gateway.service';
import { api, crm, eventually, Harness, newContact, startHarness } from '../support/engine-harness';
import { contactEvent, deliver, TEST_WEBHOOK_SECRET } from '../support/webhooks';
import { launchBrowser, logIn, screenshot } from './browser';

const RULES = {
  'vip.yaml': [
    'rule: vip-on-update',
    'on: contact.updated',
    'if:',
    '  all:',
    '    - { fact: contact.isBlocked, operator: equal, value: false }',
    '    - { fact: contact.name, operator: notEqual, value: Nobody }',
    'do:',
    '  - add-tag: vip',
    '',
  ].join('\n'),
};

describe('operator console in a real browser', () => {
  let h: Harness;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    [h, browser] = await Promise.all([
      startHarness({
        rules: RULES,
        subscribe: false,
        env: { CRM_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET, CRM_MAX_RETRIES: '1', RULES_WATCH: 'false' },
      }),
      launchBrowser(),
    ]);
    context = await browser.newContext();
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await h?.stop();
  });

  it('refuses a wrong token, logs in with the right one, and keeps the token out of the cookie', async () => {
    await page.goto(`${h.url}/console/runs`);
    await page.waitForURL(/\/console\/login$/);
    await page.fill('input[name=token]', 'not-the-token');
    await page.click('button[type=submit]');
    await page.getByRole('alert').filter({ hasText: 'not the admin token' }).waitFor();
    await logIn(page, h.url);
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'crmr_console')!;
    expect(session).toEqual(expect.objectContaining({ httpOnly: true, sameSite: 'Strict' }));
    expect(JSON.stringify(cookies)).not.toContain('test-admin-token');
    // A state-changing request without the page's CSRF token is refused even with the cookie.
    const forged = await page.evaluate(async () => {
      const res = await fetch('/console/rules/vip-on-update/control', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'change=pause',
      });
      return res.status;
    });
    expect(forged).toBe(403);
  });

  it("finds a contact's timeline after a rule acted, and reads the run's trace", async () => {
    const contact = await newContact(h, 'Tina Timeline');
    const event = JSON.stringify(contactEvent('contact.updated', contact));
    await deliver(h.url, event);
    await eventually(async () => {
      const runs = await api(h.url, 'GET', `/admin/runs?contact=${contact.id}&status=succeeded`, undefined, {
        'x-admin-token': 'test-admin-token',
      });
      return runs.body.data.length === 1;
    });
    await page.goto(`${h.url}/console/contacts`);
    await page.fill('input[name=id]', contact.id);
    await page.click('form.filters button');
    await page.waitForURL(/\/console\/contacts\/.+/);
    const steps = page.locator('ol.timeline li.step');
    expect(await steps.count()).toBeGreaterThanOrEqual(3);
    const text = await page.locator('ol.timeline').innerText();
    expect(text).toContain('received contact.updated');
    expect(text).toContain('vip-on-update matched');
    expect(text).toMatch(/vip-on-update: add-tag "vip" done/);
    await screenshot(page, 'timeline');

    await page.getByRole('link', { name: 'vip-on-update matched' }).click();
    await page.waitForURL(/\/console\/runs\/[0-9a-f-]{36}$/);
    const trace = await page.locator('ul.trace').innerText();
    expect(trace).toContain('✔ all');
    expect(trace).toContain('✔ contact.isBlocked equal false: saw false');
    expect(trace).toContain('✔ contact.name notEqual "Nobody": saw "Tina Timeline"');
    const action = await page.locator('table.actions tbody tr').first().innerText();
    expect(action).toContain('add-tag "vip"');
    expect(action).toContain('succeeded');
    await screenshot(page, 'run');
  });

  it('pauses a rule from the rules page, and the next event records paused', async () => {
    await page.goto(`${h.url}/console/rules`);
    const row = page.locator('tr[data-rule="vip-on-update"]');
    await row.locator('input[name=note]').fill('<b>investigating</b>');
    await row.getByRole('button', { name: 'Pause' }).click();
    await page.waitForURL(/\/console\/rules\?done=/);
    await row.locator('.badge', { hasText: 'paused' }).waitFor();
    const audit = await page.locator('table.audit tbody tr').first().innerText();
    expect(audit).toContain('vip-on-update');
    expect(audit).toContain('pause');
    expect(audit).toContain('<b>investigating</b>'); // shown as text, not markup
    await screenshot(page, 'rules');

    const contact = await newContact(h, 'Paula Paused');
    await deliver(h.url, JSON.stringify(contactEvent('contact.updated', contact)));
    await page.goto(`${h.url}/console/runs?contact=${contact.id}`);
    await eventually(async () => {
      await page.reload();
      return (await page.locator('table.runs tbody .badge').allInnerTexts()).includes('paused');
    });
    const tags = (await crm(h, 'GET', `/v1/contacts/${contact.id}`)).body.tags;
    expect(tags.map((t: { name: string }) => t.name)).not.toContain('vip');
    await screenshot(page, 'runs');

    await page.goto(`${h.url}/console/rules`);
    await row.getByRole('button', { name: 'Resume' }).click();
    await page.waitForURL(/\/console\/rules\?done=/);
    await row.getByRole('button', { name: 'Pause' }).waitFor();
  });

  it('shows the overview with live numbers', async () => {
    await page.goto(`${h.url}/console`);
    const updated = await page.locator('#overview').getAttribute('data-updated');
    // Each server-sent sample re-stamps the panel (live.js).
    await eventually(async () => (await page.locator('#overview').getAttribute('data-updated')) !== updated);
    expect(Number(await page.locator('[data-live="runs.succeeded"]').innerText())).toBeGreaterThanOrEqual(1);
    await screenshot(page, 'overview');
  });

  it('watches the budget plot move under load', async () => {
    await page.goto(`${h.url}/console/budget`);
    await page.locator('#budget-plot canvas').waitFor();
    const gateway = h.app.get(CrmGateway);
    await Promise.all(Array.from({ length: 40 }, () => gateway.listTags({}, { priority: 'bulk' })));
    await eventually(
      async () => Number(await page.locator('#budget-plot').getAttribute('data-last-used')) >= 40,
    );
    expect(Number(await page.locator('[data-live="bulk"]').innerText())).toBeGreaterThan(0);
    await screenshot(page, 'budget');
  });
});
