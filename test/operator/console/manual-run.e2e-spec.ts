// "Run for a contact" in a real browser: the rules page's button, the contact form, the preview
// (a dry run: the explain, nothing written), the confirmation (CSRF), then the run's page; the
// run acts through the pipeline and is recorded as manual, by the console session.
import type { Browser, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { crm, eventually, Harness, newContact, startHarness } from '../../support/engine-harness';
import { launchBrowser, logIn, screenshot } from './browser';

const RULES = {
  'vip.yaml': [
    'rule: manual-vip',
    'on: contact.updated',
    'if: { fact: contact.name, operator: startsWith, value: Console }',
    'do:',
    '  - add-tag: vip',
    '',
  ].join('\n'),
  'sweep.yaml': [
    'rule: manual-sweep',
    'on: { schedule: "0 0 1 1 *", segment: { filters: { isBlocked: false } } }',
    'do:',
    '  - add-tag: thanked',
    '',
  ].join('\n'),
};

describe('console: run a rule for a contact', () => {
  let h: Harness;
  let browser: Browser;
  let page: Page;
  let db: DataSource;

  beforeAll(async () => {
    [h, browser] = await Promise.all([
      startHarness({ rules: RULES, subscribe: false, env: { RULES_WATCH: 'false' } }),
      launchBrowser(),
    ]);
    db = h.app.get(DataSource);
    page = await (await browser.newContext()).newPage();
    await logIn(page, h.url);
  });
  afterAll(async () => {
    await browser?.close();
    await h?.stop();
  });

  it('previews first, runs after the confirmation, and lands on the run', async () => {
    const contact = await newContact(h, 'Console Carla');
    await page.goto(`${h.url}/console/rules`);
    // Segment rules have no button (a manual run is for event rules).
    expect(await page.locator('tr[data-rule=manual-sweep] a.run-for-contact').count()).toBe(0);
    await page.click('tr[data-rule=manual-vip] a.run-for-contact');
    await page.waitForURL(/\/console\/rules\/manual-vip\/run$/);
    await page.fill('input[name=contactId]', contact.id);
    await page.click('form.manual-run button[type=submit]');
    await page.waitForURL(/\/console\/rules\/manual-vip\/run\?contactId=/);
    await page.locator('pre.explain').filter({ hasText: 'Console Carla' }).waitFor();
    expect(await page.locator('table.preview-actions tbody tr').first().innerText()).toContain('would run');
    await screenshot(page, 'manual-run-preview');
    // The preview wrote nothing.
    expect(await db.query(`SELECT 1 FROM runs WHERE contact_id = $1`, [contact.id])).toEqual([]);

    await page.click('form.confirm button[type=submit]');
    await page.waitForURL(/\/console\/runs\/[0-9a-f-]{36}$/);
    const runId = page.url().split('/').pop()!;
    await page
      .locator('td')
      .filter({ hasText: /^manual run by console$/ }) // the admin token's session; a user's names them
      .waitFor();
    const [run] = await db.query(
      `SELECT rule_id AS "ruleId", trigger_key AS "triggerKey" FROM runs WHERE id = $1`,
      [runId],
    );
    expect(run).toEqual({
      ruleId: 'manual-vip',
      triggerKey: expect.stringMatching(/^manual:console:[0-9a-f-]{36}$/),
    });
    await eventually(async () => {
      const after = await crm(h, 'GET', `/v1/contacts/${contact.id}`);
      return after.body.tags.some((t: { name: string }) => t.name === 'vip');
    });
  });

  it('shows a refusal on the form for a contact the CRM does not have', async () => {
    await page.goto(`${h.url}/console/rules/manual-vip/run?contactId=0b4f1e3a-1c2d-4e5f-8a9b-0c1d2e3f4a5b`);
    await page.locator('.refusal').filter({ hasText: 'no CRM contact' }).waitFor();
  });
});
