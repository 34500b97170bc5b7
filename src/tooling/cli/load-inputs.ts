// The rule set a command works on: files, directories and globs, plus the CRM snapshot found
// beside them (or given with --snapshot), so every command sees the same rules the same way.
import {
  cannotReadRules,
  isRuleSetFile,
  loadRulesFromFiles,
  type LoadOptions,
  type LoadResult,
  type RuleFile,
} from '../../language/rules/format/load-rules';
import { expandInputs, homeDirOf } from '../../language/rules/format/rule-inputs';
import {
  isPlaceholder,
  readSnapshot,
  snapshotPath,
  type CrmSnapshot,
} from '../../language/crm-terms/crm-snapshot';

export interface LoadedInputs {
  result: LoadResult;
  ruleFiles: RuleFile[];
  /** Where the snapshot and the tests sit: the first directory input, or the first file's folder. */
  home: string;
  snapshot?: CrmSnapshot;
  /** One line for stderr: whether names were checked, and against what. */
  namesNote: string;
}

export async function loadInputs(
  inputs: string[],
  snapshotFile?: string,
  options: Omit<LoadOptions, 'snapshot'> = {},
): Promise<LoadedInputs> {
  const list = inputs.length > 0 ? inputs : ['rules'];
  const home = await homeDirOf(list);
  const { files, missing } = await expandInputs(list, isRuleSetFile);
  const path = snapshotFile ?? snapshotPath(home);
  const read = await readSnapshot(path);
  if (read instanceof Error) throw read;
  if (read === undefined && snapshotFile) throw new Error(`${snapshotFile}: no such file`);
  const snapshot = read && !isPlaceholder(read) ? read : undefined;
  const namesNote = snapshot
    ? `info: names checked against the CRM snapshot ${path} (taken ${snapshot.takenAt})`
    : `info: no CRM snapshot at ${path}: tag, stage, member, channel and field names were not checked (run crm-rules snapshot)`;
  if (missing.length > 0) {
    const problems = missing.flatMap((m) => cannotReadRules(m.input, m.reason).problems);
    return { result: { problems }, ruleFiles: files, home, namesNote };
  }
  return {
    result: loadRulesFromFiles(files, { assigneeAdvice: true, ...options, snapshot }),
    ruleFiles: files,
    home,
    ...(snapshot ? { snapshot } : {}),
    namesNote,
  };
}
