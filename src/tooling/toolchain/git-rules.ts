// The rule files as they were at a git ref, read with `git ls-tree` / `git show` (no checkout, the
// working tree is untouched). Paths are joined to `dir` as given, like the working tree's, so
// rule sources read the same on both sides.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { isRuleSetFile, type RuleFile } from '../../language/rules/format/load-rules';

const run = promisify(execFile);

async function git(args: string[], cwd: string): Promise<string> {
  try {
    const { stdout } = await run('git', args, { cwd, maxBuffer: 256 * 1024 * 1024 });
    return stdout;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`git ${args.join(' ')}: ${(e.stderr || e.message).trim()}`);
  }
}

/** Rule files under `dir` at `ref` (hidden files and *.test.yaml left out, like the loader). */
export async function ruleFilesAtRef(ref: string, dir: string): Promise<RuleFile[]> {
  // Run inside dir: ls-tree then lists paths relative to it, whichever repository it belongs to.
  const listing = await git(['ls-tree', '-r', '--name-only', ref, '--', '.'], dir);
  const paths = listing
    .split('\n')
    .filter((p) => p && isRuleSetFile(p) && !p.split('/').some((s) => s.startsWith('.')))
    .sort();
  const files: RuleFile[] = [];
  for (const path of paths)
    files.push({ path: join(dir, path), text: await git(['show', `${ref}:./${path}`], dir) });
  return files;
}
