import { estimateWaitMs, slotTimeMs } from './budget-math';
import type { BudgetParams, BudgetState } from './rate-budget';

const NOW = 1_000_000;
const params: BudgetParams = {
  limit: 4,
  windowMs: 1_000,
  bulkMinShare: 0.25,
  marginMs: 0,
  leaseMs: 500,
  bulkToleranceMs: 10,
  aliveTtlMs: 10_000,
  coldStart: false,
};
const state = (over: Partial<BudgetState> = {}): BudgetState => ({
  now: NOW,
  scores: [],
  bulkUsed: 0,
  waitingInteractive: 0,
  waitingBulk: 0,
  pausedUntil: 0,
  bulkTat: 0,
  ...over,
});

describe('slotTimeMs', () => {
  it('offers free slots now and busy ones when their call stops counting', () => {
    const s = state({ scores: [NOW - 900, NOW - 100] }); // two free, two busy
    expect([0, 1, 2, 3].map((k) => slotTimeMs(s, params, k) - NOW)).toEqual([0, 0, 100, 900]);
  });

  it('reuses each slot one window later for calls beyond the limit', () => {
    const s = state({ scores: [NOW - 900, NOW - 800, NOW - 700, NOW - 600] });
    expect(slotTimeMs(s, params, 4) - NOW).toBe(100 + 1_000);
    expect(slotTimeMs(s, params, 9) - NOW).toBe(200 + 2_000);
  });
});

describe('estimateWaitMs', () => {
  it('is zero for an interactive call when a slot is free', () => {
    expect(estimateWaitMs(state({ scores: [NOW - 10] }), params, 'interactive')).toBe(0);
  });

  it('puts an interactive call behind the interactive calls already waiting', () => {
    const s = state({ scores: [NOW - 900, NOW - 800, NOW - 700, NOW - 600], waitingInteractive: 2 });
    expect(estimateWaitMs(s, params, 'interactive')).toBe(300);
  });

  it('adds the shared pause', () => {
    expect(estimateWaitMs(state({ pausedUntil: NOW + 2_500 }), params, 'interactive')).toBe(2_500);
  });

  it('bounds a bulk wait by its guaranteed share when interactive work piles up', () => {
    // 100 interactive waiters would take 25 windows; bulk's one slot per window comes sooner.
    const s = state({ waitingInteractive: 100, waitingBulk: 2 });
    expect(estimateWaitMs(s, params, 'bulk')).toBe(2 * 1_000);
  });

  it('never promises bulk a slot faster than its pace', () => {
    const s = state({ waitingBulk: 3, bulkTat: NOW + 250 });
    // Pace: one bulk call per 250 ms; three ahead of it, TAT 250 ms away, 10 ms tolerance.
    expect(estimateWaitMs(s, params, 'bulk')).toBe(250 - 10 + 3 * 250);
  });
});
