import { backlogEta, formatDuration, type EtaInput } from './backlog-eta';

const base: EtaInput = {
  backlog: { interactive: 0, bulk: 0 },
  limit: 300,
  windowMs: 60_000,
  bulkMinShare: 0.2,
  usedInWindow: 300,
  pauseRemainingMs: 0,
};

describe('backlog ETA at the budget', () => {
  it.each<[string, Partial<EtaInput>, { interactiveMs: number; bulkMs: number }]>([
    ['nothing waiting', {}, { interactiveMs: 0, bulkMs: 0 }],
    [
      'interactive alone, window full: 300 calls take one window',
      { backlog: { interactive: 300, bulk: 0 } },
      { interactiveMs: 60_000, bulkMs: 0 },
    ],
    [
      'interactive alone fits in the free slots',
      { backlog: { interactive: 50, bulk: 0 }, usedInWindow: 100 },
      { interactiveMs: 0, bulkMs: 0 },
    ],
    [
      'bulk alone drains at the full rate',
      { backlog: { interactive: 0, bulk: 600 } },
      { interactiveMs: 0, bulkMs: 120_000 },
    ],
    // both: bulk keeps 60/window, interactive gets 240/window: 240 interactive take 1 window,
    // bulk did 60 meanwhile, its other 240 take 48 s at the full rate.
    [
      'both: bulk keeps its share while interactive drains',
      { backlog: { interactive: 240, bulk: 300 } },
      { interactiveMs: 60_000, bulkMs: 108_000 },
    ],
    [
      'both: small bulk finishes on its share alone',
      { backlog: { interactive: 2400, bulk: 30 } },
      { interactiveMs: 600_000, bulkMs: 30_000 },
    ],
    [
      'a pause delays everything',
      { backlog: { interactive: 300, bulk: 0 }, pauseRemainingMs: 5_000 },
      { interactiveMs: 65_000, bulkMs: 0 },
    ],
  ])('%s', (_name, input, expected) => {
    expect(backlogEta({ ...base, ...input })).toEqual(expected);
  });

  it.each([
    [0, 'now'],
    [250, '250 ms'],
    [45_000, '45 s'],
    [600_000, '10 min'],
    [2 * 3600_000, '2.0 h'],
  ])('formats %d ms as %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
