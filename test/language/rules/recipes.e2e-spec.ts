// The recipes of docs/RECIPES.md live in recipes/, outside the rule set the engine loads, so that
// following the docs works: copy one into rules/ and it validates (no duplicate id, its $schema
// path still resolves). Run through the CLI's exported run(argv), in a temp copy of the repository.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { cli } from '../../support/cli';

const ROOT = join(__dirname, '..', '..', '..');
const RECIPES = join(ROOT, 'recipes');
const recipeFiles = readdirSync(RECIPES).filter((f) => f.endsWith('.yaml') && !f.endsWith('.test.yaml'));
/** A recipe naming a policy category needs the recipes' policy beside it (in its own directory). */
const needsPolicy = (file: string) => /^\s*category:/m.test(readFileSync(join(RECIPES, file), 'utf8'));
/** A recipe on a custom source needs the recipes' sources.yaml beside it. */
const needsSources = (file: string) => /^on: custom\./m.test(readFileSync(join(RECIPES, file), 'utf8'));
/** A recipe calling a named step list needs the recipes' steps/ beside it. */
const needsSteps = (file: string) => /\bcall: /.test(readFileSync(join(RECIPES, file), 'utf8'));
const copySteps = (file: string, tmp: string) => {
  if (needsSteps(file))
    cpSync(join(RECIPES, 'steps'), join(tmp, 'rules', 'steps'), { recursive: true, errorOnExist: true });
};

describe('recipes', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'crm-recipes-'));
    cpSync(join(ROOT, 'rules'), join(tmp, 'rules'), { recursive: true });
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('validate and pass their own tests where they live', async () => {
    expect(recipeFiles.length).toBe(18);
    const validated = await cli('validate', 'recipes');
    expect(validated.out).toMatch(/^✔ recipes: 23 rule\(s\) in 20 file\(s\) are valid/m);
    expect(validated.code).toBe(0);
    const tested = await cli('test', 'recipes');
    expect(tested.out).toMatch(/\n74 passed, 0 failed\n$/);
    expect(tested.code).toBe(0);
  });

  it.each(recipeFiles)('%s copied into rules/ validates, its $schema resolving', async (file) => {
    cpSync(join(RECIPES, file), join(tmp, 'rules', file), { errorOnExist: true });
    if (needsPolicy(file))
      cpSync(join(RECIPES, 'policy'), join(tmp, 'rules', 'policy'), { recursive: true, errorOnExist: true });
    if (needsSources(file))
      cpSync(join(RECIPES, 'sources'), join(tmp, 'rules', 'sources'), {
        recursive: true,
        errorOnExist: true,
      });
    copySteps(file, tmp);
    const schema = /\$schema=(\S+)/.exec(readFileSync(join(tmp, 'rules', file), 'utf8'))?.[1];
    expect(existsSync(resolve(join(tmp, 'rules'), schema!).replace(tmp, ROOT))).toBe(true);
    expect(dirname(resolve(join(tmp, 'rules'), schema!))).toBe(
      join(tmp, 'src', 'language', 'rules', 'format'),
    );
    const { code, out } = await cli('validate', join(tmp, 'rules'));
    expect(out).toMatch(/^✔ /m);
    expect(code).toBe(0);
  });

  // Issue 33, goal 5: a recipe copied alone into rules/ (with its test, and the recipes' policy when
  // it names a category, its sources when it names a custom source) validates, and every test
  // passes beside the shipped rules and theirs. The shipped cases about several rules together
  // name them (`rules: [...]`): before, a recipe on the same event failed them.
  const copyAlone = async (file: string) => {
    cpSync(join(RECIPES, file), join(tmp, 'rules', file), { errorOnExist: true });
    const test = file.replace(/\.yaml$/, '.test.yaml');
    cpSync(join(RECIPES, test), join(tmp, 'rules', test), { errorOnExist: true });
    if (needsPolicy(file))
      cpSync(join(RECIPES, 'policy'), join(tmp, 'rules', 'policy'), { recursive: true, errorOnExist: true });
    if (needsSources(file))
      cpSync(join(RECIPES, 'sources'), join(tmp, 'rules', 'sources'), {
        recursive: true,
        errorOnExist: true,
      });
    copySteps(file, tmp);
    const validated = await cli('validate', join(tmp, 'rules'));
    expect(validated.out).toMatch(/^✔ /m);
    expect(validated.code).toBe(0);
    return cli('test', join(tmp, 'rules'));
  };

  it.each(recipeFiles)('%s copied alone with its test into rules/ tests green', async (file) => {
    const tested = await copyAlone(file);
    expect(tested.out).toMatch(/\n\d+ passed, 0 failed\n$/);
    expect(tested.code).toBe(0);
  });

  it('all copied into rules/ at once (with their tests) validate', async () => {
    cpSync(RECIPES, join(tmp, 'rules'), { recursive: true, errorOnExist: true, force: false });
    const { code, out } = await cli('validate', join(tmp, 'rules'));
    expect(out).toMatch(/^✔ .*: 28 rule\(s\) in 24 file\(s\) are valid/m);
    expect(code).toBe(0);
  });
});
