import { decide, type LimiterState } from './alert-limiter';

const policy = { perWindow: 2, windowMs: 1000 };

/** Feeds (kind, occurrences, time) in order; returns what was sent with its held-back count. */
function run(steps: [string, number, number][]): string[] {
  let state: LimiterState = {};
  const sent: string[] = [];
  for (const [kind, n, at] of steps) {
    const d = decide(state, kind, n, at, policy);
    state = d.state;
    if (d.send) sent.push(`${kind}@${at}+${d.heldBack}`);
  }
  return sent;
}

describe('alert rate limit', () => {
  it.each<[string, [string, number, number][], string[]]>([
    [
      'sends the first ones of a window',
      [
        ['dead', 1, 0],
        ['dead', 1, 10],
      ],
      ['dead@0+0', 'dead@10+0'],
    ],
    [
      'holds back the rest of the window, and tells the count in the next window',
      [
        ['dead', 1, 0],
        ['dead', 1, 1],
        ['dead', 5, 2],
        ['dead', 7, 3],
        ['dead', 1, 1000],
      ],
      ['dead@0+0', 'dead@1+0', 'dead@1000+12'],
    ],
    [
      'limits each kind on its own',
      [
        ['dead', 1, 0],
        ['dead', 1, 1],
        ['dead', 1, 2],
        ['429', 1, 3],
      ],
      ['dead@0+0', 'dead@1+0', '429@3+0'],
    ],
    [
      'a storm of thousands sends two per window',
      Array.from({ length: 3000 }, (_, i): [string, number, number] => ['failed-events', 1, i]),
      [
        'failed-events@0+0',
        'failed-events@1+0',
        'failed-events@1000+998',
        'failed-events@1001+0',
        'failed-events@2000+998',
        'failed-events@2001+0',
      ],
    ],
  ])('%s', (_name, steps, expected) => {
    expect(run(steps)).toEqual(expected);
  });
});
