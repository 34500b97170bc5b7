import { heldOut, holdoutPoint } from './holdout';
import { judgeMessage } from './judge-message';
import type { MessagingPolicy } from './messaging-policy';

const ids = Array.from({ length: 1000 }, (_, i) => `c0ffee00-0000-4000-8000-${String(i).padStart(12, '0')}`);
const POLICY: MessagingPolicy = {
  hash: 'x',
  timezone: 'UTC',
  caps: [],
  overCap: 'skip',
  inQuietHours: 'defer',
  calendars: {},
  categories: { marketing: {}, service: {} },
  defaultCategory: 'marketing',
  holdout: { percent: 10, salt: '2026-q4', categories: ['marketing'] },
};
const NOW = new Date('2026-06-10T12:00:00Z');

describe('the global control group (holdout)', () => {
  it('holds out 10% of 1,000 contacts within 4 sigma, and they get no marketing message', () => {
    const held = ids.filter((id) => heldOut(POLICY.holdout, id, 'marketing'));
    const sigma = Math.sqrt(1000 * 0.1 * 0.9); // 9.5
    expect(Math.abs(held.length - 100)).toBeLessThanOrEqual(4 * sigma);
    for (const id of ids) {
      const d = judgeMessage(POLICY, { type: 'send-message', now: NOW, contact: { id }, sent: [] });
      expect(d?.kind === 'skip' && d.reason === 'holdout').toBe(held.includes(id));
    }
  });

  it('is stable per contact, and a new salt draws a new group', () => {
    expect(holdoutPoint('a', ids[0])).toBe(holdoutPoint('a', ids[0]));
    const group = (salt: string) => ids.filter((id) => holdoutPoint(salt, id) < 0.1);
    expect(group('a')).toEqual(group('a'));
    expect(group('a')).not.toEqual(group('b'));
  });

  it('holds only the categories it names: a service message reaches the control group', () => {
    const inGroup = ids.find((id) => heldOut(POLICY.holdout, id, 'marketing'))!;
    expect(
      judgeMessage(POLICY, {
        type: 'send-message',
        category: 'service',
        now: NOW,
        contact: { id: inGroup },
        sent: [],
      }),
    ).toEqual({ kind: 'go' });
    expect(
      judgeMessage(POLICY, { type: 'send-message', now: NOW, contact: { id: inGroup }, sent: [] }),
    ).toEqual({
      kind: 'skip',
      reason: 'holdout',
      detail: 'in the global control group (10%); category marketing',
    });
  });
});
