// Issue 30, goal 7: the rules loader followed links out of RULES_DIR and quoted file contents in
// its problems (a link to /proc/self/environ printed env values in the log and /admin/rules/reload).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRulesFromDir } from './load-rules';

const RULE = 'rule: a\non: contact.created\ndo: [{ add-tag: a }]\n';
const SECRET = 'HTTP_SECRET_ERP=TOPSECRET-123';

describe('rules loader and links', () => {
  let base: string;
  let dir: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'rules-links-'));
    dir = join(base, 'rules');
    mkdirSync(dir);
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('refuses a rule file that links outside RULES_DIR, and never quotes what it points at', async () => {
    writeFileSync(join(base, 'environ'), SECRET);
    writeFileSync(join(dir, 'a.yaml'), RULE);
    symlinkSync(join(base, 'environ'), join(dir, 'env.yaml'));
    const result = await loadRulesFromDir(dir);
    expect(result.ruleSet).toBeUndefined();
    expect(result.problems).toEqual([
      expect.objectContaining({
        severity: 'error',
        code: 'io',
        message: expect.stringContaining('outside the rules directory'),
      }),
    ]);
    expect(JSON.stringify(result.problems)).not.toContain('TOPSECRET');
  });

  it('never quotes a document that is not a mapping', async () => {
    writeFileSync(join(dir, 'env.yaml'), SECRET);
    const result = await loadRulesFromDir(dir);
    expect(result.ruleSet).toBeUndefined();
    expect(result.problems.length).toBeGreaterThan(0);
    expect(JSON.stringify(result.problems)).not.toContain('TOPSECRET');
  });

  it('still loads the Kubernetes ConfigMap layout (a.yaml -> ..data/a.yaml -> ..2026_11_28/a.yaml)', async () => {
    mkdirSync(join(dir, '..2026_11_28'));
    writeFileSync(join(dir, '..2026_11_28', 'a.yaml'), RULE);
    symlinkSync('..2026_11_28', join(dir, '..data'));
    symlinkSync(join('..data', 'a.yaml'), join(dir, 'a.yaml'));
    const result = await loadRulesFromDir(dir);
    expect(result.problems).toEqual([]);
    expect(result.ruleSet!.rules.map((r) => r.id)).toEqual(['a']);
  });
});
