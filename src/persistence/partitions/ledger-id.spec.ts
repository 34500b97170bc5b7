import { dayOfLedgerId, ledgerId } from './ledger-id';

describe('ledger ids', () => {
  it.each([
    ['2026-11-29T03:20:11.123Z', '2026-11-29T00:00:00.000Z'],
    ['2026-11-29T00:00:00.000Z', '2026-11-29T00:00:00.000Z'],
    ['2026-11-29T23:59:59.999Z', '2026-11-29T00:00:00.000Z'],
    ['2000-01-01T00:00:00.000Z', '2000-01-01T00:00:00.000Z'],
    ['2028-02-29T12:00:00.000Z', '2028-02-29T00:00:00.000Z'],
  ])('an id made for %s names the day from %s', (at, day) => {
    const id = ledgerId(new Date(at));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const named = dayOfLedgerId(id)!;
    expect(named.from.toISOString()).toBe(day);
    expect(named.to.getTime() - named.from.getTime()).toBe(86_400_000);
  });

  it('orders ids by their time (a v7 property), and two ids of one instant differ', () => {
    const a = ledgerId(new Date('2026-11-29T03:00:00Z'));
    const b = ledgerId(new Date('2026-11-29T03:00:00.001Z'));
    expect(a < b).toBe(true);
    expect(ledgerId(new Date(0))).not.toBe(ledgerId(new Date(0)));
  });

  it.each(['5f0c2a9e-0000-4000-8000-000000000001', 'not-a-uuid', ''])('names no day for %j', (id) => {
    expect(dayOfLedgerId(id)).toBeNull();
  });

  it.each([new Date(NaN), new Date(-1)])('refuses a time it cannot hold: %s', (at) => {
    expect(() => ledgerId(at)).toThrow(/no ledger id/);
  });
});
