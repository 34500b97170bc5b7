// The deploy pages' views (pure): the live version, the history with each result, the audit,
// a diff of two versions, and one rule's YAML as it was at a commit (issue 31).
import type { RuleProblem } from '../../../language/rules/format/rule-types';
import { loadRulesFromFiles } from '../../../language/rules/format/load-rules';
import { versionFiles } from '../../../runtime/rule-set/deploy/directory-version';
import type { VersionDiff } from '../../../runtime/rule-set/deploy/version-diff';
import { when } from './display-format';

interface VersionRow {
  commit: string;
  status: string;
  message: string | null;
  author: string | null;
  activatedBy: string | null;
  activatedAt: Date | null;
  createdAt: Date;
  pinned: boolean;
  report: RuleProblem[];
}

const TONE: Record<string, string> = { activated: 'ok', refused: 'bad', 'rolled-back': 'warn' };

export function historyRows(rows: readonly VersionRow[]) {
  return rows.map((v) => ({
    commit: v.commit,
    short: v.commit.slice(0, 12),
    status: v.status === 'recorded' ? 'held back (pin)' : v.status,
    tone: TONE[v.status] ?? 'muted',
    message: v.message ?? '',
    author: v.author ?? '',
    pinned: v.pinned,
    when: when(v.activatedAt ?? v.createdAt),
    by: v.activatedBy ?? '',
    problems: v.report
      .filter((p) => p.severity === 'error')
      .slice(0, 5)
      .map((p) => `${p.file}:${p.line}:${p.col} ${p.message}`),
  }));
}

export function diffView(from: string, to: string, diff: VersionDiff) {
  return {
    from,
    to,
    rules: diff.rules,
    files: diff.files.map((f) => ({ ...f, lines: lineDiff(f.before ?? '', f.after ?? '') })),
  };
}

/** A plain line diff (longest common subsequence): fine for rule files of a few hundred lines. */
export function lineDiff(before: string, after: string): { sign: string; text: string; tone: string }[] {
  const a = before ? before.split('\n') : [];
  const b = after ? after.split('\n') : [];
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const out: { sign: string; text: string; tone: string }[] = [];
  let [i, j] = [0, 0];
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push({ sign: ' ', text: a[i], tone: 'muted' });
      i++;
      j++;
    } else if (j < b.length && (i >= a.length || lcs[i][j + 1] >= lcs[i + 1][j]))
      out.push({ sign: '+', text: b[j++], tone: 'ok' });
    else out.push({ sign: '-', text: a[i++], tone: 'bad' });
  }
  return out;
}

/** The file holding `ruleId` at that version, numbered, the rule's own lines marked; undefined if absent. */
export function ruleAtCommit(commit: string, files: Record<string, string>, ruleId: string) {
  const loaded = loadRulesFromFiles(versionFiles(files)).loaded ?? [];
  const rule = loaded.find((l) => l.def.id === ruleId)?.def;
  if (!rule) return undefined;
  const text = files[rule.source.file] ?? '';
  const starts = loaded
    .filter((l) => l.def.source.file === rule.source.file)
    .map((l) => l.def.source.line)
    .sort((x, y) => x - y);
  const end = starts.find((line) => line > rule.source.line) ?? Number.MAX_SAFE_INTEGER;
  return {
    commit,
    ruleId,
    file: rule.source.file,
    line: rule.source.line,
    lines: text.split('\n').map((t, i) => ({
      n: i + 1,
      text: t,
      mine: i + 1 >= rule.source.line && i + 1 < end,
    })),
  };
}
