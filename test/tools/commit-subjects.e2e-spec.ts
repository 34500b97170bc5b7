// scripts/check-commit-subjects.js (run by .ci/run) on a throw-away git repository: it fails on a
// subject past 72 characters after the cut-off, ignores the commits before it, and refuses to pass
// when the cut-off is not in the clone (a shallow clone would otherwise check nothing).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = join(__dirname, '..', '..', 'scripts', 'check-commit-subjects.js');
const OLD_LONG = `history: ${'an old subject written before the rule, left as it is '.repeat(2)}`;
const SHORT = 'area: a subject of the right length';
const EXACTLY_72 = `area: ${'x'.repeat(66)}`;
const TOO_LONG = `area: ${'y'.repeat(67)}`;

describe('check-commit-subjects', () => {
  let repo: string;
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.test', ...args], {
      cwd: repo,
      encoding: 'utf8',
    }).trim();
  const commit = (subject: string) => {
    git('commit', '-q', '--allow-empty', '-m', subject);
    return git('rev-parse', 'HEAD');
  };
  const check = (since: string) =>
    spawnSync(process.execPath, [SCRIPT, '--since', since], { cwd: repo, encoding: 'utf8' });

  beforeEach(() => {
    repo = mkdtempSync(join(tmpdir(), 'commit-subjects-'));
    git('init', '-q');
  });
  afterEach(() => rmSync(repo, { recursive: true, force: true }));

  it('passes subjects of at most 72 characters and ignores the commits up to the cut-off', () => {
    commit(OLD_LONG);
    const cutOff = commit(SHORT);
    commit(SHORT);
    commit(EXACTLY_72);
    const run = check(cutOff);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('2 commits since');
  });

  it('fails on a subject of 73 characters, naming the commit and its length', () => {
    const cutOff = commit(SHORT);
    commit(SHORT);
    const long = commit(TOO_LONG);
    const run = check(cutOff);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`${long.slice(0, 7)}: subject is 73 characters (at most 72)`);
    expect(run.stderr).toContain('1 of 2 commits');
  });

  it('fails when the cut-off commit is not in the clone', () => {
    commit(SHORT);
    const run = check('0123456789abcdef0123456789abcdef01234567');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('not in this clone');
  });
});
