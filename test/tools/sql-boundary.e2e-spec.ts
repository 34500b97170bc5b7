// SQL text only in repositories (one owner per table) is enforced by `npm run lint`: ESLint, run
// with the repository's own eslint.config.mjs on a fixture tree (lint-fixture/src), reports every
// SQL string and statement call outside a *.repository.ts and the SQL toolkit, and every SQL string
// in the toolkit, at its line; nothing in a repository, no statement the toolkit runs for one, and no
// prose that merely starts with "With" or "DELETE".
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const ESLINT = join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');
const FIXTURE = 'test/tools/lint-fixture/src';
const SQL_TEXT = 'SQL text belongs in a *.repository.ts (one owner per table)';
const STATEMENT_CALL =
  'Statements run in a *.repository.ts (one owner per table): call the repository of the table';

interface LintResult {
  filePath: string;
  messages: { ruleId: string | null; line: number; message: string }[];
}

function eslint(...args: string[]) {
  return spawnSync(process.execPath, [ESLINT, ...args], { cwd: ROOT, encoding: 'utf8' });
}

describe('SQL only in repositories (npm run lint)', () => {
  it('reports SQL text and statement calls outside repositories, each at its line', () => {
    const run = eslint('--no-ignore', '--format', 'json', FIXTURE);
    expect(run.status).toBe(1);
    const found = (JSON.parse(run.stdout) as LintResult[]).flatMap((r) =>
      r.messages.map((m) => [r.filePath.slice(ROOT.length + 1), m.line, m.ruleId, m.message]),
    );
    // Whole paths (a re-layout's codemod rewrites them), compared in sorted order (one move reorders them).
    const outside = 'test/tools/lint-fixture/src/pipeline/contact-mirror/sql-outside.ts';
    expect(found.sort()).toEqual(
      [
        [outside, 9, 'no-restricted-syntax', SQL_TEXT],
        [outside, 10, 'no-restricted-syntax', SQL_TEXT],
        [outside, 12, 'no-restricted-syntax', SQL_TEXT],
        [outside, 13, 'no-restricted-syntax', SQL_TEXT],
        [outside, 14, 'no-restricted-syntax', SQL_TEXT],
        [outside, 15, 'no-restricted-syntax', STATEMENT_CALL],
        [outside, 16, 'no-restricted-syntax', STATEMENT_CALL],
        [outside, 17, 'no-restricted-syntax', STATEMENT_CALL],
        ['test/tools/lint-fixture/src/persistence/sql/lock.ts', 8, 'no-restricted-syntax', SQL_TEXT],
      ].sort(),
    );
  });

  it.each([
    ['src/pipeline/contact-mirror/contact-mirror.service.ts', true],
    ['src/pipeline/segments/sweeps/membership-diff.ts', true],
    ['src/pipeline/contact-mirror/contact-mirror.repository.ts', false],
    ['src/persistence/sql/advisory-locks.repository.ts', false],
    ['src/persistence/sql/fenced.ts', true],
    ['src/pipeline/contact-mirror/mirror-records.spec.ts', false],
  ])('applies the rule to the real %s: %s', (file, applies) => {
    const run = eslint('--print-config', file);
    expect(run.status).toBe(0);
    const config = JSON.parse(run.stdout) as { rules: Record<string, unknown[]> };
    const messages = (config.rules['no-restricted-syntax'] ?? [])
      .slice(1)
      .map((r) => (r as { message: string }).message);
    expect(messages.includes(SQL_TEXT)).toBe(applies);
  });
});
