import { splitReadouts } from '../../admin/split-readouts';
import { TWO_SPLITS as BRANCHES, TWO_SPLIT_COUNTS as counts } from '../../admin/split-readouts.spec-support';
import { splitExperimentLines } from './experiment-lines';

// The console's experiment lines of a rule with several splits (split-readouts.ts decides).
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
