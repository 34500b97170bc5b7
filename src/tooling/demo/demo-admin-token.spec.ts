// The embedded demo's admin token: generated once, kept owner-only in .data/, reused after.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keepDemoAdminToken } from './demo-admin-token';

describe('keepDemoAdminToken', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'crmr-token-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('generates a random 48-hex token once, keeps it owner-only, and returns it on the next start', () => {
    const first = keepDemoAdminToken(root);
    expect(first).toEqual({
      token: expect.stringMatching(/^[0-9a-f]{48}$/),
      generated: true,
      file: '.data/admin-token',
    });
    const file = join(root, '.data', 'admin-token');
    expect(readFileSync(file, 'utf8').trim()).toBe(first.token);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(keepDemoAdminToken(root)).toEqual({ ...first, generated: false });
  });

  it('two fresh clones get different tokens', () => {
    const other = mkdtempSync(join(tmpdir(), 'crmr-token-'));
    try {
      expect(keepDemoAdminToken(root).token).not.toBe(keepDemoAdminToken(other).token);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it.each(['', 'short', 'x'.repeat(48)])(
    'replaces a kept value that is not a generated token (%j)',
    (kept) => {
      mkdirSync(join(root, '.data'));
      writeFileSync(join(root, '.data', 'admin-token'), kept);
      const token = keepDemoAdminToken(root);
      expect(token.generated).toBe(true);
      expect(token.token).toMatch(/^[0-9a-f]{48}$/);
    },
  );
});
