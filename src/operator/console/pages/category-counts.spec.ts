import type { MessagingPolicy } from '../../../language/policy/messaging-policy';
import { describeCategoryCounts } from './category-counts';

const NOW = new Date('2026-06-10T12:00:00Z');
const ago = (h: number) => new Date(NOW.getTime() - h * 3_600_000);
const POLICY = {
  hash: 'x',
  timezone: 'UTC',
  caps: [],
  overCap: 'skip',
  inQuietHours: 'defer',
  calendars: {},
  defaultCategory: 'service',
  categories: { service: {}, marketing: {} },
} as MessagingPolicy;
const WEEK = { per: '7d', perMs: 7 * 24 * 3_600_000 };

describe('customer messages per category on the contact page', () => {
  it('counts each category in the period, uncategorised ones in the default', () => {
    const sent = [
      { at: ago(1), category: 'marketing' },
      { at: ago(2) },
      { at: ago(3), category: 'service' },
      { at: ago(200), category: 'marketing' },
    ];
    expect(describeCategoryCounts(sent, POLICY, WEEK, NOW)).toBe(
      'by category in the last 7d: marketing 1, service 2',
    );
  });

  it('says nothing without categories', () => {
    expect(describeCategoryCounts([{ at: ago(1) }], { ...POLICY, categories: undefined }, WEEK, NOW)).toBe(
      '',
    );
  });
});
