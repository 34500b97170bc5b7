// What a segment match records for the console's trace: each constraining member with its actual
// value, relative dates as the instant they resolved to.
import { matchesSegment } from './segment-filter';
import { DORMANT, NOW, VIP, contact, f } from './segment-filter.spec-support';

describe('matchesSegment trace', () => {
  it('traces every constraining member with its actual value', () => {
    const { matched, trace } = matchesSegment(f({ tagIds: [DORMANT], status: 'active' }), contact(), NOW);
    expect(matched).toBe(false);
    expect(trace).toEqual([
      expect.objectContaining({
        at: 'segment.tagIds',
        operator: 'containsAny',
        expected: [DORMANT],
        actual: [VIP],
        result: false,
      }),
      expect.objectContaining({
        at: 'segment.status',
        operator: 'equal',
        expected: 'active',
        actual: 'active',
        result: true,
      }),
    ]);
  });

  it('traces relative dates as the instant they resolved to', () => {
    const { trace } = matchesSegment(f({ lastInteractionBefore: 'now-30d' }), contact(), NOW);
    expect(trace[0]).toMatchObject({
      operator: 'before',
      expected: '2025-05-16T12:00:00.000Z',
      actual: '2025-05-01T00:00:00.000Z',
      result: true,
    });
  });

  it('has an empty trace when nothing constrains', () => {
    expect(matchesSegment(f({}), contact(), NOW)).toEqual({ matched: true, trace: [] });
  });
});
