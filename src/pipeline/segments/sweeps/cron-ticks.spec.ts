import { latestTickBetween, nextTickAfter } from './cron-ticks';

const at = (iso: string) => new Date(iso);

describe('latestTickBetween', () => {
  it('is null when no tick fell between the last one and now', () => {
    expect(
      latestTickBetween('0 6 * * *', undefined, at('2025-03-01T06:00:00Z'), at('2025-03-02T05:59:59Z')),
    ).toBeNull();
  });

  it('gives the latest of several missed ticks, once', () => {
    const missed = latestTickBetween(
      '0 6 * * *',
      undefined,
      at('2025-03-01T06:00:00Z'),
      at('2025-03-05T09:00:00Z'),
    );
    expect(missed?.toISOString()).toBe('2025-03-05T06:00:00.000Z');
  });

  it('counts a tick exactly at now as fallen', () => {
    expect(
      latestTickBetween(
        '*/15 * * * *',
        undefined,
        at('2025-03-01T00:00:00Z'),
        at('2025-03-01T00:15:00Z'),
      )?.toISOString(),
    ).toBe('2025-03-01T00:15:00.000Z');
  });

  it('does not count the last tick itself again', () => {
    expect(
      latestTickBetween('*/15 * * * *', undefined, at('2025-03-01T00:15:00Z'), at('2025-03-01T00:29:59Z')),
    ).toBeNull();
  });

  it('reads the schedule in the rule time zone', () => {
    // São Paulo is UTC-3 all year: 06:00 there is 09:00 UTC.
    const missed = latestTickBetween(
      '0 6 * * *',
      'America/Sao_Paulo',
      at('2025-03-01T09:00:00Z'),
      at('2025-03-02T10:00:00Z'),
    );
    expect(missed?.toISOString()).toBe('2025-03-02T09:00:00.000Z');
  });

  it('stays quick after a long outage of a per-second schedule', () => {
    const missed = latestTickBetween(
      '*/5 * * * * *',
      undefined,
      at('2025-01-01T00:00:00Z'),
      at('2025-03-01T00:00:03Z'),
    );
    expect(missed?.toISOString()).toBe('2025-03-01T00:00:00.000Z');
  });
});

describe('nextTickAfter', () => {
  it('is strictly after the given instant', () => {
    expect(nextTickAfter('0 * * * *', undefined, at('2025-03-01T10:00:00Z')).toISOString()).toBe(
      '2025-03-01T11:00:00.000Z',
    );
  });
});
