// The rules that differ between two deployed versions (pure): by rule id and content hash (a
// comment-only change differs in its file but not in any rule), and which files changed.
import { loadRulesFromFiles } from '../../../language/rules/format/load-rules';
import { versionFiles } from './directory-version';

export interface VersionDiff {
  rules: { rule: string; change: 'added' | 'removed' | 'changed' }[];
  files: { path: string; change: 'added' | 'removed' | 'changed'; before?: string; after?: string }[];
}

export function diffVersions(before: Record<string, string>, after: Record<string, string>): VersionDiff {
  const versions = (files: Record<string, string>) =>
    new Map((loadRulesFromFiles(versionFiles(files)).loaded ?? []).map((l) => [l.def.id, l.def.version]));
  const [a, b] = [versions(before), versions(after)];
  const rules: VersionDiff['rules'] = [];
  for (const [id, v] of b)
    if (!a.has(id)) rules.push({ rule: id, change: 'added' });
    else if (a.get(id) !== v) rules.push({ rule: id, change: 'changed' });
  for (const id of a.keys()) if (!b.has(id)) rules.push({ rule: id, change: 'removed' });
  const files: VersionDiff['files'] = [];
  for (const path of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    const [x, y] = [before[path], after[path]];
    if (x === y) continue;
    const change = x === undefined ? 'added' : y === undefined ? 'removed' : 'changed';
    files.push({
      path,
      change,
      ...(x !== undefined ? { before: x } : {}),
      ...(y !== undefined ? { after: y } : {}),
    });
  }
  return { rules: rules.sort((p, q) => p.rule.localeCompare(q.rule)), files };
}
