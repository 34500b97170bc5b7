import { formatProblems } from './format-problems';
import type { RuleProblem } from './rule-types';

const problems: RuleProblem[] = [
  {
    file: 'rules/a.yaml',
    line: 3,
    col: 5,
    severity: 'error',
    code: 'unknown-event',
    message: 'unknown event kind "x", really',
  },
  {
    file: 'rules/b,c.yaml',
    line: 1,
    col: 1,
    severity: 'warning',
    code: 'redundant',
    message: '100% useless\nsecond line',
  },
];

describe('formatProblems', () => {
  it('prints file:line:col: severity: message [code] for people and editors', () => {
    expect(formatProblems(problems, 'text')).toBe(
      'rules/a.yaml:3:5: error: unknown event kind "x", really [unknown-event]\nrules/b,c.yaml:1:1: warning: 100% useless\nsecond line [redundant]',
    );
  });

  it('prints GitHub workflow annotations with escaped data and properties', () => {
    expect(formatProblems(problems, 'github').split('\n')).toEqual([
      '::error file=rules/a.yaml,line=3,col=5,title=crm-rules unknown-event::unknown event kind "x", really',
      '::warning file=rules/b%2Cc.yaml,line=1,col=1,title=crm-rules redundant::100%25 useless%0Asecond line',
    ]);
  });

  it('prints the problems as JSON', () => {
    expect(JSON.parse(formatProblems(problems, 'json'))).toEqual(problems);
  });
});
