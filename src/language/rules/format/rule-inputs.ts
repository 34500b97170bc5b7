// What `validate` and `test` accept: files, directories and globs, in any mix (a pre-commit hook
// passes file names; CI passes the directory). Each input expands to the YAML files it names.
import { readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';
import { readYamlFiles, type RuleFile } from './load-rules';

export interface ExpandedInputs {
  files: RuleFile[];
  /** Inputs that named nothing readable, with the reason. */
  missing: { input: string; reason: string }[];
}

/** Files kept by `keep`, each once, in input order then path order. */
export async function expandInputs(
  inputs: readonly string[],
  keep: (path: string) => boolean,
): Promise<ExpandedInputs> {
  const seen = new Set<string>();
  const files: RuleFile[] = [];
  const missing: ExpandedInputs['missing'] = [];
  const add = (file: RuleFile) => {
    if (seen.has(file.path)) return;
    seen.add(file.path);
    files.push(file);
  };
  for (const input of inputs) {
    if (isDynamicPattern(input)) {
      const paths = (await glob(input, { onlyFiles: true, expandDirectories: false })).filter(keep).sort();
      if (paths.length === 0) missing.push({ input, reason: 'the pattern matches no rule file' });
      for (const path of paths) add({ path, text: await readFile(path, 'utf8') });
      continue;
    }
    const kind = await stat(input).then(
      (s) => (s.isDirectory() ? 'dir' : 'file'),
      () => undefined,
    );
    if (kind === 'dir') (await readYamlFiles(input, keep)).forEach(add);
    else if (kind === 'file') {
      if (keep(input)) add({ path: input, text: await readFile(input, 'utf8') });
    } else missing.push({ input, reason: 'no such file or directory' });
  }
  return { files, missing };
}

/** The directory a set of inputs lives in: where the snapshot and the tests sit beside the rules. */
export async function homeDirOf(inputs: readonly string[]): Promise<string> {
  const first = inputs[0] ?? 'rules';
  if (isDynamicPattern(first)) {
    // The folder before the first wildcard: `rules/**/*.yaml` lives in rules.
    const parts = first.split('/');
    const fixed = parts.slice(
      0,
      parts.findIndex((p) => isDynamicPattern(p)),
    );
    return fixed.length > 0 ? fixed.join('/') : '.';
  }
  return (await stat(first).then(
    (s) => s.isDirectory(),
    () => false,
  ))
    ? first
    : dirname(first);
}
