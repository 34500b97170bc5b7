// Problems printed for people (text), for machines (json) and for GitHub Actions annotations.
import type { RuleProblem } from './rule-types';

export type ProblemFormat = 'text' | 'json' | 'github';

/** `file:line:col: error: message [code]`, the shape compilers use, so editors and CI link to it. */
export function formatProblem(p: RuleProblem): string {
  return `${p.file}:${p.line}:${p.col}: ${p.severity}: ${p.message} [${p.code}]`;
}

export function formatProblems(problems: readonly RuleProblem[], format: ProblemFormat): string {
  switch (format) {
    case 'json':
      return JSON.stringify(problems, null, 2);
    case 'github':
      return problems.map(githubAnnotation).join('\n');
    default:
      return problems.map(formatProblem).join('\n');
  }
}

// https://docs.github.com/actions/reference/workflow-commands-for-github-actions
const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

function githubAnnotation(p: RuleProblem): string {
  const level = p.severity === 'error' ? 'error' : 'warning';
  const props = `file=${escapeProperty(p.file)},line=${p.line},col=${p.col},title=${escapeProperty(`crm-rules ${p.code}`)}`;
  return `::${level} ${props}::${escapeData(p.message)}`;
}
