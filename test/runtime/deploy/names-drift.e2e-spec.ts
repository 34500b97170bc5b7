// Issue 31: a running engine hot-loaded a rule naming a tag the live CRM lacks (`add-tag: noreply`)
// with only "rule set … loaded", and the failure showed up at run time. Now each load (here from
// RULES_DIR, the demo's source) is checked against the live directory (the sandbox): the name is
// warned about at once, counted in /metrics and listed on the deploy status.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeployedVersions } from '../../../src/runtime/rule-set/deploy/deployed-versions.service';
import { admin, eventually, startHarness, type Harness } from '../../support/engine-harness';
import { request } from '../../support/http';
import { run } from '../../../src/tooling/cli/index';
import { ADMIN_TOKEN } from '../../support/engine-harness';

const rule = (tag: string) => `rule: welcome\non: contact.created\ndo:\n  - add-tag: ${tag}\n`;

describe('names the live CRM lacks', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ rules: { 'welcome.yaml': rule('vip') } });
  });
  afterAll(async () => h?.stop());

  it('warns about a hot-reloaded rule naming a tag the CRM lacks, at once (metric and deploy status)', async () => {
    const deployed = h.app.get(DeployedVersions);
    expect(await deployed.checkNames('test')).toEqual([]);
    writeFileSync(join(h.rulesDir, 'welcome.yaml'), rule('noreply'));
    expect((await admin(h, 'POST', '/admin/rules/reload')).body.ok).toBe(true);
    await eventually(async () => deployed.missingNames().length > 0);
    expect(deployed.missingNames()).toEqual([
      expect.objectContaining({
        kind: 'tag',
        at: 'welcome.yaml:4:14',
        message: expect.stringContaining('"noreply"'),
      }),
    ]);
    const metrics = await request(`${h.url}/metrics`, 'GET', { headers: { 'x-admin-token': ADMIN_TOKEN } });
    expect(String(metrics.body)).toContain('crmr_rules_missing_names{kind="tag"} 1');
    const status = (await admin(h, 'GET', '/admin/deploy')).body;
    expect(status.missingNames).toEqual([expect.stringContaining('welcome.yaml:4:14 unknown tag "noreply"')]);
    expect(status.active.commit).toMatch(/^dir-/);
  });

  it('crm-rules deploy shows the live version; rollback is refused for a RULES_DIR source', async () => {
    const saved = process.env.ADMIN_TOKEN;
    process.env.ADMIN_TOKEN = ADMIN_TOKEN;
    try {
      const cli = async (...args: string[]) => {
        let out = '';
        let err = '';
        const code = await run(['deploy', '--url', h.url, ...args], {
          out: (t) => (out += t),
          err: (t) => (err += t),
        });
        return { code, out, err };
      };
      const live = (await admin(h, 'GET', '/admin/deploy')).body.active.commit;
      const status = await cli('status');
      expect(status).toMatchObject({ code: 0, out: expect.stringContaining(`live: ${live}`) });
      const history = await cli('history');
      expect(history.out.split('\n').filter((l) => l.startsWith('dir-'))).toHaveLength(2);
      // RULES_DIR: each process reads its directory, so a version row cannot roll it back.
      const back = await cli('rollback');
      expect(back).toMatchObject({
        code: 1,
        err: expect.stringContaining('409 the rules come from RULES_DIR'),
      });
      expect((await admin(h, 'GET', '/admin/deploy')).body.active.commit).toBe(live);
    } finally {
      if (saved === undefined) delete process.env.ADMIN_TOKEN;
      else process.env.ADMIN_TOKEN = saved;
    }
  });
});
