import {
  assertIdentifier,
  dailyPartition,
  parsePartitionName,
  partitionsAhead,
  partitionsBefore,
  utcDay,
} from './ledger-partitions';

describe('ledger partitions', () => {
  it.each([
    ['2026-11-28T00:00:00Z', 'runs_p20261128', '2026-11-28T00:00:00.000Z', '2026-11-29T00:00:00.000Z'],
    ['2026-11-28T23:59:59.999Z', 'runs_p20261128', '2026-11-28T00:00:00.000Z', '2026-11-29T00:00:00.000Z'],
    ['2026-12-31T12:00:00Z', 'runs_p20261231', '2026-12-31T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
    ['2028-02-29T05:00:00Z', 'runs_p20280229', '2028-02-29T00:00:00.000Z', '2028-03-01T00:00:00.000Z'],
  ])('the partition of %s is %s [%s, %s)', (at, name, from, to) => {
    const p = dailyPartition('runs', new Date(at));
    expect(p).toEqual({ name, from: new Date(from), to: new Date(to) });
  });

  it('creates today and the days ahead, whatever the hour', () => {
    const names = partitionsAhead('action_results', new Date('2026-11-30T22:10:00Z'), 3).map((p) => p.name);
    expect(names).toEqual([
      'action_results_p20261130',
      'action_results_p20261201',
      'action_results_p20261202',
      'action_results_p20261203',
    ]);
  });

  it.each([
    ['runs_p20261128', '2026-11-28T00:00:00.000Z'],
    ['contact_journal_p20260101', '2026-01-01T00:00:00.000Z'],
    ['runs_default', null],
    ['runs_legacy', null],
    ['runs_p2026112', null],
    ['runs_p20261340', null],
  ])('reads %s as the day %s', (name, from) => {
    const p = parsePartitionName(name);
    expect(p ? p.from.toISOString() : null).toBe(from);
  });

  it('drops only whole days before the cutoff, oldest first, never the default', () => {
    const names = ['runs_p20261127', 'runs_default', 'runs_p20261125', 'runs_p20261126', 'runs_p20261128'];
    const cutoff = new Date('2026-11-27T03:17:00Z');
    expect(partitionsBefore(names, cutoff).map((p) => p.name)).toEqual(['runs_p20261125', 'runs_p20261126']);
    expect(partitionsBefore(names, utcDay(cutoff)).map((p) => p.name)).toEqual([
      'runs_p20261125',
      'runs_p20261126',
    ]);
  });

  it.each(['runs', 'runs_p20261128', 'contact_journal'])('accepts the identifier %s', (name) => {
    expect(assertIdentifier(name)).toBe(name);
  });

  it.each(['runs; DROP TABLE x', 'Runs', '"runs"', '', 'a-b'])('refuses the identifier %j', (name) => {
    expect(() => assertIdentifier(name)).toThrow(/not a plain identifier/);
  });
});
