import { splitReadouts } from '../../admin/split-readouts';
import { splitExperimentLines } from './experiment-lines';

// The console's experiment lines of a rule with several splits (split-readouts.ts decides).
const BRANCHES = [
  {
    kind: 'split',
    source: ['do', 0],
    arms: [{ label: 'arm:offer' }, { label: 'arm:holdout', control: true as const }],
  },
  { kind: 'if', source: ['do', 1], arms: [{ label: 'then' }, { label: 'else' }] },
  { kind: 'split', source: ['do', 2], arms: [{ label: 'arm:a' }, { label: 'arm:control' }] },
];
const counts = [
  { branch: 0, label: 'arm:offer', runs: 1000, goalReached: 200 },
  { branch: 0, label: 'arm:holdout', runs: 1000, goalReached: 100 },
  { branch: 1, label: 'then', runs: 500, goalReached: 90 },
  { branch: 2, label: 'arm:a', runs: 10, goalReached: 2 },
  { branch: 2, label: 'arm:control', runs: 10, goalReached: 1 },
];

describe('splitExperimentLines', () => {
  it('the console says which split each line is about when there are several', () => {
    const lines = splitExperimentLines(splitReadouts(BRANCHES, counts));
    expect(lines[0]).toMatch(/^experiment \(split do\.0\): arm:offer 20\.0% .*: \+10\.0 pts vs arm:holdout/);
    expect(lines).toContain(
      'experiment (split do.2): too few to say: arm:a: 10 run(s), fewer than 30; arm:control: 10 run(s), fewer than 30',
    );
    const one = splitExperimentLines(splitReadouts(BRANCHES.slice(0, 1), counts));
    expect(one[0]).toMatch(/^experiment: /);
  });
});
