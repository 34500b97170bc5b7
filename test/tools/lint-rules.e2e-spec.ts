// The type-aware rules and the 300-line ceiling of `npm run lint` are live: ESLint, run with the
// repository's own eslint.config.mjs on a fixture (lint-fixture/violations.ts) that breaks each
// rule once, reports each of them at the expected line, and the fixture is kept out of the real run.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const ESLINT = join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');
const FIXTURE = 'test/tools/lint-fixture/violations.ts';

interface LintResult {
  messages: { ruleId: string | null; line: number }[];
}

function lint(...args: string[]): { status: number | null; messages: [string | null, number][] } {
  const run = spawnSync(process.execPath, [ESLINT, '--format', 'json', ...args, FIXTURE], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const results = JSON.parse(run.stdout) as LintResult[];
  const messages = results.flatMap((r) => r.messages.map((m): [string | null, number] => [m.ruleId, m.line]));
  return { status: run.status, messages };
}

describe('type-aware lint rules and max-lines (npm run lint)', () => {
  it('reports each rule the fixture breaks, at its line', () => {
    const { status, messages } = lint('--no-ignore');
    expect(status).toBe(1);
    expect(messages).toEqual([
      ['@typescript-eslint/no-floating-promises', 8],
      ['@typescript-eslint/no-misused-promises', 12],
      ['@typescript-eslint/switch-exhaustiveness-check', 18],
      ['max-lines', expect.any(Number)],
    ]);
  });

  it('keeps the fixture out of the real run', () => {
    // Only ESLint's own note that the file is ignored (no rule id).
    const { status, messages } = lint();
    expect(status).toBe(0);
    expect(messages.map(([ruleId]) => ruleId)).toEqual([null]);
  });
});
