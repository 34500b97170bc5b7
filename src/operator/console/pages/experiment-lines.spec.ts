import { experimentReadout } from '../../admin/experiment-readout';
import { experimentLines } from './experiment-lines';

describe('the rules page experiment lines', () => {
  it('says each arm against the control, with the interval and the method', () => {
    const lines = experimentLines(
      experimentReadout(
        [
          { label: 'arm:control', runs: 1000, converted: 100 },
          { label: 'arm:offer', runs: 1000, converted: 200 },
        ],
        'arm:control',
      ),
    );
    expect(lines[0]).toBe('experiment: arm:control 10.0% (8.3%–12.0%), control');
    expect(lines[1]).toMatch(
      /^experiment: arm:offer 20\.0% \(17\.6%–22\.6%\): \+10\.0 pts vs arm:control \(95% CI \+6\.9 pts to \+13\.1 pts\), lift \+100\.0%, p < 0\.001$/,
    );
    expect(lines[2]).toContain('two-proportion z-test');
  });

  it('says too few to say for a small sample', () => {
    expect(
      experimentLines(
        experimentReadout([
          { label: 'arm:a', runs: 10, converted: 1 },
          { label: 'arm:b', runs: 10, converted: 3 },
        ]),
      ),
    ).toEqual([
      'experiment: too few to say: arm:a: 10 run(s), fewer than 30; arm:b: 10 run(s), fewer than 30',
    ]);
  });
});
