// The recipes of docs/RECIPES.md live in recipes/, outside the rule set the engine loads, so that
// following the docs works: copy one into rules/ and it validates (no duplicate id, its $schema
// path still resolves). Run through the CLI's exported run(argv), in a temp copy of the repository.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { cli } from '../support/cli';

const ROOT = join(__dirname, '..', '..');
const RECIPES = join(ROOT, 'recipes');
const recipeFiles = readdirSync(RECIPES).filter((f) => f.endsWith('.yaml') && !f.endsWith('.test.yaml'));

describe('recipes', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'crm-recipes-'));
    cpSync(join(ROOT, 'rules'), join(tmp, 'rules'), { recursive: true });
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('validate and pass their own tests where they live', async () => {
    expect(recipeFiles.length).toBe(11);
    const validated = await cli('validate', 'recipes');
    expect(validated.out).toMatch(/^✔ recipes: 12 rule\(s\) in 11 file\(s\) are valid/);
    expect(validated.code).toBe(0);
    const tested = await cli('test', 'recipes');
    expect(tested.out).toMatch(/\n39 passed, 0 failed\n$/);
    expect(tested.code).toBe(0);
  });

  it.each(recipeFiles)('%s copied into rules/ validates, its $schema resolving', async (file) => {
    cpSync(join(RECIPES, file), join(tmp, 'rules', file), { errorOnExist: true });
    const schema = /\$schema=(\S+)/.exec(readFileSync(join(tmp, 'rules', file), 'utf8'))?.[1];
    expect(existsSync(resolve(join(tmp, 'rules'), schema!).replace(tmp, ROOT))).toBe(true);
    expect(dirname(resolve(join(tmp, 'rules'), schema!))).toBe(join(tmp, 'src', 'language', 'rules'));
    const { code, out } = await cli('validate', join(tmp, 'rules'));
    expect(out).toMatch(/^✔ /);
    expect(code).toBe(0);
  });

  it('all copied into rules/ at once (with their tests) validate', async () => {
    cpSync(RECIPES, join(tmp, 'rules'), { recursive: true, errorOnExist: true, force: false });
    const { code, out } = await cli('validate', join(tmp, 'rules'));
    expect(out).toMatch(/^✔ .*: 17 rule\(s\) in 15 file\(s\) are valid/);
    expect(code).toBe(0);
  });
});
