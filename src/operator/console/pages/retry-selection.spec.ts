import { retrySelection } from './retry-selection';

const rows = (...runs: string[]) => runs.map((runId, i) => ({ runId, id: `a${i}` }));

describe('retrySelection', () => {
  it.each<[string, ReturnType<typeof rows>, number, string[], number, boolean]>([
    ['nothing matches', rows(), 3, [], 0, false],
    ['fewer runs than the cap', rows('r1', 'r2'), 3, ['r1', 'r2'], 2, false],
    ['exactly the cap', rows('r1', 'r2', 'r3'), 3, ['r1', 'r2', 'r3'], 3, false],
    [
      'one row more than the cap (the query reads cap + 1)',
      rows('r1', 'r2', 'r3', 'r4'),
      3,
      ['r1', 'r2', 'r3'],
      3,
      true,
    ],
    ['two actions of one run count once', rows('r1', 'r1', 'r2'), 3, ['r1', 'r2'], 3, false],
    [
      'cap + 1 rows in fewer runs: more may match beyond the read',
      rows('r1', 'r1', 'r2', 'r2'),
      3,
      ['r1', 'r2'],
      4,
      true,
    ],
  ])('%s', (_case, matching, cap, runIds, shown, more) => {
    const selection = retrySelection(matching, cap);
    expect(selection.runIds).toEqual(runIds);
    expect(selection.shown).toHaveLength(shown);
    expect(selection.more).toBe(more);
  });
});
