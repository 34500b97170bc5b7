// A rule with two splits and an if between them, and goal counts per arm (shared by the readout's
// and the console's specs).
export const TWO_SPLITS = [
  {
    kind: 'split',
    source: ['do', 0],
    arms: [{ label: 'arm:offer' }, { label: 'arm:holdout', control: true as const }],
  },
  { kind: 'if', source: ['do', 1], arms: [{ label: 'then' }, { label: 'else' }] },
  { kind: 'split', source: ['do', 2], arms: [{ label: 'arm:a' }, { label: 'arm:control' }] },
];
export const TWO_SPLIT_COUNTS = [
  { branch: 0, label: 'arm:offer', runs: 1000, goalReached: 200 },
  { branch: 0, label: 'arm:holdout', runs: 1000, goalReached: 100 },
  { branch: 1, label: 'then', runs: 500, goalReached: 90 },
  { branch: 2, label: 'arm:a', runs: 10, goalReached: 2 },
  { branch: 2, label: 'arm:control', runs: 10, goalReached: 1 },
];
