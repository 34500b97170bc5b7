// Periods the console offers for counts ("last hour", ...). Pure.
export const PERIODS = { '15m': 15 * 60_000, '1h': 3600_000, '24h': 24 * 3600_000, '7d': 7 * 24 * 3600_000 };
export type Period = keyof typeof PERIODS;

export function parsePeriod(raw: unknown, fallback: Period = '1h'): Period {
  return typeof raw === 'string' && raw in PERIODS ? (raw as Period) : fallback;
}

export function periodStart(period: Period, now = Date.now()): Date {
  return new Date(now - PERIODS[period]);
}
