// docs/ARCHITECTURE.md opens with the map of one event, one numbered line per file; docs/GLOSSARY.md
// names the file that owns each term. Both go stale silently when a file moves: this parses them
// and checks that every file they name exists (and that the map is numbered without gaps). The
// "one row type per table" list in ARCHITECTURE.md is checked against src/persistence/schema/entities.ts: every
// entity's table has a line, and every type a line names is exported by a file it names.
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

/** The table of each entity in src/persistence/schema/entities.ts (its `@Entity('<table>')`), read from the sources. */
function entityTables(): string[] {
  const entities = readFileSync(join(ROOT, 'src', 'persistence', 'schema', 'entities.ts'), 'utf8');
  return [...entities.matchAll(/from '([^']+\.entity)'/g)].map((m) => {
    const source = readFileSync(join(ROOT, 'src', 'persistence', 'schema', `${m[1]}.ts`), 'utf8');
    const table = /@Entity\('([a-z_]+)'\)/.exec(source);
    if (!table) throw new Error(`no @Entity('<table>') in ${m[1]}`);
    return table[1];
  });
}

/** The lines "- `table` → `Type` (`path`); ..." of ARCHITECTURE.md: [table, types, paths]. */
function rowTypeLines(): [string, string[], string[]][] {
  return read('ARCHITECTURE.md')
    .split('\n')
    .filter((line) => /^- `[a-z_]+` → /.test(line))
    .map((line) => {
      const names = [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
      return [names[0], names.filter((n) => /^[A-Z]\w+$/.test(n)), names.filter((n) => n.includes('/'))];
    });
}

const exportsType = (path: string, name: string) =>
  new RegExp(`^export (type|interface|class) ${name}\\b`, 'm').test(readFileSync(join(ROOT, path), 'utf8'));

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

  it('ARCHITECTURE.md names one row type for every table of src/persistence/schema/entities.ts, and no other table', () => {
    expect(
      rowTypeLines()
        .map(([table]) => table)
        .sort(),
    ).toEqual(entityTables().sort());
  });

  it.each(rowTypeLines())(
    'the row types of %s are exported by the files its line names',
    (_t, types, paths) => {
      expect(types.length).toBeGreaterThan(0);
      expect(types.filter((name) => !paths.some((path) => exportsType(path, name)))).toEqual([]);
    },
  );
});
