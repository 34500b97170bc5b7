import { timelineProgress, type TimelineEntry } from './run-timeline-entry';

const at = '2024-05-06T10:00:00.000Z';

describe('timelineProgress', () => {
  it.each<[string, TimelineEntry[], { waits: number[]; limit: boolean; waiting: boolean }]>([
    ['a new run', [], { waits: [], limit: false, waiting: false }],
    [
      'waiting on its first wait',
      [{ at, step: 'waiting', for: 'wait', wait: 0 }],
      { waits: [], limit: false, waiting: true },
    ],
    [
      'past its first wait, waiting on the second',
      [
        { at, step: 'limit' },
        { at, step: 'waiting', for: 'wait', wait: 0 },
        { at, step: 'resumed', for: 'wait', wait: 0 },
        { at, step: 'waiting', for: 'wait', wait: 1 },
      ],
      { waits: [0], limit: true, waiting: true },
    ],
    [
      'resumed after a window (no wait passed)',
      [
        { at, step: 'waiting', for: 'window' },
        { at, step: 'resumed', for: 'window' },
      ],
      { waits: [], limit: false, waiting: false },
    ],
  ])('%s', (_name, timeline, expected) => {
    const p = timelineProgress(timeline);
    expect({ waits: [...p.waitsPassed], limit: p.limitTaken, waiting: p.waiting !== undefined }).toEqual(
      expected,
    );
  });
});
