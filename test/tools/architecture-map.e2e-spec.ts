// docs/ARCHITECTURE.md opens with the map of one event, one numbered line per file; docs/GLOSSARY.md
// names the file that owns each term. Both go stale silently when a file moves: this parses them
// and checks that every file they name exists (and that the map is numbered without gaps).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const read = (doc: string) => readFileSync(join(ROOT, 'docs', doc), 'utf8');

/** The numbered lines of the section under `## The map of one event`: [number, path]. */
function mapOfOneEvent(): [number, string][] {
  const text = read('ARCHITECTURE.md');
  const start = text.indexOf('## The map of one event');
  const end = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, end);
  return section
    .split('\n')
    .filter((line) => /^\d+\. /.test(line))
    .map((line) => {
      const match = /^(\d+)\. `([^`]+)`: \S/.exec(line);
      if (!match) throw new Error(`map line is not "N. \`path\`: what it does": ${line}`);
      return [Number(match[1]), match[2]];
    });
}

/** The paths in the last column of GLOSSARY.md's table. */
function glossaryOwners(): string[] {
  return read('GLOSSARY.md')
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| term'))
    .flatMap((line) => [...(line.split('|').at(-2) ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1]));
}

describe('docs that name files', () => {
  const map = mapOfOneEvent();

  it('ARCHITECTURE.md opens with the map of one event, numbered 1..n, one file per line', () => {
    expect(/^## (.+)$/m.exec(read('ARCHITECTURE.md'))?.[1]).toBe('The map of one event');
    expect(map.length).toBeGreaterThanOrEqual(30);
    expect(map.map(([n]) => n)).toEqual(map.map((_, i) => i + 1));
    expect(map[0][1]).toBe('src/engine.ts');
  });

  it.each(map.map(([n, path]) => [n, path]))('map line %i names a file that exists: %s', (_n, path) => {
    expect(existsSync(join(ROOT, path as string))).toBe(true);
  });

  it.each(glossaryOwners())('GLOSSARY.md names a file that exists: %s', (path) => {
    expect(existsSync(join(ROOT, path))).toBe(true);
  });

  it('the glossary is linked from README.md and ARCHITECTURE.md', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain('docs/GLOSSARY.md');
    expect(read('ARCHITECTURE.md')).toContain('(GLOSSARY.md)');
  });
});
