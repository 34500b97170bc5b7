// crm-rules run in-process, as a test reads it: the exit code and what it printed on each stream.
// And git with a fixed identity, for the tests that build a repository of rules to diff.
import { execFileSync } from 'node:child_process';
import { run } from '../../src/tooling/cli';

export async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await run(argv, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

export const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, stdio: 'pipe' });
