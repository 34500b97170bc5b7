import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminTokenOf, ago } from './engine-admin-client';

describe('adminTokenOf', () => {
  const root = mkdtempSync(join(tmpdir(), 'crmr-token-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const kept = 'ab'.repeat(24);

  it.each<[string, string | undefined, string | undefined, unknown]>([
    ['ADMIN_TOKEN wins', 'x'.repeat(40), kept, { token: 'x'.repeat(40), source: 'ADMIN_TOKEN' }],
    ["else the demo's kept token", undefined, kept, { token: kept, source: '.data/admin-token' }],
    ['a kept file that is no demo token is ignored', undefined, 'not a token', undefined],
    ['nothing kept: none', undefined, undefined, undefined],
  ])('%s', (_name, configured, file, expected) => {
    rmSync(join(root, '.data'), { recursive: true, force: true });
    if (file !== undefined) {
      mkdirSync(join(root, '.data'));
      writeFileSync(join(root, '.data', 'admin-token'), `${file}\n`);
    }
    expect(adminTokenOf(configured, root)).toEqual(expected);
  });
});

describe('ago', () => {
  const now = new Date('2026-06-01T12:00:00Z');
  it.each([
    [5_000, '5 s ago'],
    [10 * 60_000, '10 min ago'],
    [5 * 3_600_000, '5 h ago'],
  ])('%i ms → %s', (ms, text) => {
    expect(ago(new Date(now.getTime() - ms), now)).toBe(text);
  });
});
