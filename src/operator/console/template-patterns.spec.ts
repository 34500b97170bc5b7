// Browsers check an input's `pattern` as a regular expression with the `v` flag (HTML spec):
// one that does not compile there is ignored, and the check with it (console finding: the manual
// run form's pattern, `[0-9a-fA-F-]{36}`, a bare `-` a v-mode class refuses).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = join(__dirname, 'templates');
const patterns = readdirSync(dir)
  .filter((f) => f.endsWith('.mustache'))
  .flatMap((f) =>
    [...readFileSync(join(dir, f), 'utf8').matchAll(/\spattern="([^"]*)"/g)].map((m) => [f, m[1]] as const),
  );

describe('console templates: input patterns', () => {
  it('has the manual run form among them', () => {
    expect(patterns.map(([f]) => f)).toContain('manual-run.mustache');
  });

  it.each(patterns)('%s: %s compiles with the v flag, as a browser compiles it', (_file, pattern) => {
    const decoded = pattern.replace(/&amp;/g, '&').replace(/&quot;/g, '"');
    expect(() => new RegExp(`^(?:${decoded})$`, 'v')).not.toThrow();
  });

  it('accepts a contact id with the manual run form pattern', () => {
    const [, pattern] = patterns.find(([f]) => f === 'manual-run.mustache')!;
    expect(new RegExp(`^(?:${pattern})$`, 'v').test('d0000000-0000-4000-8000-000000000042')).toBe(true);
  });
});
