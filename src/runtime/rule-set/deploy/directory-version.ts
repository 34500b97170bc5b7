// A RULES_DIR's content as a deployed version (pure): its id is a hash of the files, so every
// process loading the same directory records the same row, and a changed file a new one.
import { relative } from 'node:path';
import { contentHash } from '../../../language/rules/format/content-hash';
import type { RuleFile } from '../../../language/rules/format/load-rules';
import type { RuleProblem } from '../../../language/rules/format/rule-types';
import type { NewRuleSetVersion } from './rule-set-versions.repository';

export function directoryVersion(
  dir: string,
  files: readonly RuleFile[],
  report: RuleProblem[],
  ruleSetVersion: string | null,
): NewRuleSetVersion {
  const byPath: Record<string, string> = {};
  for (const f of files) byPath[relative(dir, f.path)] = f.text;
  return {
    commit: `dir-${contentHash(byPath, 16)}`,
    source: 'directory',
    author: null,
    message: `directory ${dir}`,
    files: byPath,
    report,
    ruleSetVersion,
  };
}

/** A version's files as the loader takes them (paths relative to the rules root). */
export function versionFiles(files: Record<string, string>): RuleFile[] {
  return Object.keys(files)
    .sort()
    .map((path) => ({ path, text: files[path] }));
}
