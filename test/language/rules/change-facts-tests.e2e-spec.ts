// Rule tests of change operators, offline through the crm-rules CLI in-process (no Postgres, no
// Redis, no network): test/language/rules/change-facts holds the rules, their *.test.yaml (cases with
// `previous`) and the CRM snapshot the stage and member names resolve through.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../../support/cli';

const FIXTURE = 'test/language/rules/change-facts';

describe('rule tests of change operators', () => {
  it('validate accepts the rules and their names against the snapshot', async () => {
    const { code, out } = await cli('validate', FIXTURE);
    expect(out).toMatch(/^✔ test\/language\/rules\/change-facts: 4 rule\(s\) in 1 file\(s\) are valid/);
    expect(code).toBe(0);
  });

  it('passes every case, with and without a previous state', async () => {
    const { code, out } = await cli('test', FIXTURE);
    expect(out).toMatch(/\n9 passed, 0 failed\n$/);
    expect(code).toBe(0);
  });

  it('fails a case that expects a run on first sight, and explains "no previous state"', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'crm-rules-change-'));
    try {
      for (const f of ['change-facts.yaml', '.crm-snapshot.json'])
        copyFileSync(join(FIXTURE, f), join(tmp, f));
      writeFileSync(
        join(tmp, 'wrong.test.yaml'),
        [
          'tests:',
          '  - name: expects a run without previous state',
          '    rule: welcome-qualified',
          '    event: { type: contact.updated, data: { stageId: Qualified } }',
          '    expect: [{ add-tag: customer }]',
          '',
        ].join('\n'),
      );
      const { code, out } = await cli('test', tmp);
      expect(code).toBe(1);
      expect(out).toContain('no previous state: the case gives no previous contact');
      expect(out).toMatch(/\n0 passed, 1 failed\n$/);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('refuses a change operator on a message rule with its file:line:col', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'crm-rules-change-'));
    try {
      const rule = readFileSync(join(FIXTURE, 'change-facts.yaml'), 'utf8').split('---')[0];
      writeFileSync(join(tmp, 'r.yaml'), rule.replace('on: contact.updated', 'on: message.created'));
      const { code, out } = await cli('validate', tmp);
      expect(code).toBe(1);
      expect(out).toContain(`${join(tmp, 'r.yaml')}:6:40: error`);
      expect(out).toContain('change-without-previous');
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
