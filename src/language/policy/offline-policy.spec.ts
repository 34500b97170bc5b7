import type { MessagingPolicy } from './messaging-policy';
import { OfflinePolicy } from './offline-policy';

const D = 86_400_000;
const POLICY: MessagingPolicy = {
  hash: 'x',
  timezone: 'UTC',
  caps: [{ max: 2, per: '1d', perMs: D }],
  overCap: 'skip',
  inQuietHours: 'defer',
  quietHours: { from: 21 * 60, to: 8 * 60, zone: 'contact' },
  contactTimezoneField: 'tz',
  calendars: {},
};
const NOON = new Date('2026-06-10T12:00:00Z');

describe('OfflinePolicy (forecast replays)', () => {
  it('counts customer messages per contact across rules and skips over the cap', () => {
    const p = new OfflinePolicy(POLICY);
    const kinds = ['send-message', 'add-tag', 'send-template', 'react', 'send-message'].map(
      (type) => p.decide('c1', type, NOON)?.kind,
    );
    // add-tag and react are not customer messages: the policy has no say.
    expect(kinds).toEqual(['go', undefined, 'go', undefined, 'skip']);
    expect(p.decide('c2', 'send-message', NOON)?.kind).toBe('go');
  });

  it.each([
    ['UTC evening: deferred', '2026-06-10T22:00:00Z', {}, 'defer'],
    [
      'evening in New York is afternoon there: goes',
      '2026-06-10T22:00:00Z',
      { tz: 'America/New_York' },
      'go',
    ],
  ])('reads quiet hours in the contact zone: %s', (_name, now, fields, kind) => {
    expect(new OfflinePolicy(POLICY).decide('c1', 'send-message', new Date(now), fields)?.kind).toBe(kind);
  });

  it.each([
    ['two in the last day: capped at once', [1, 5], 'skip'],
    ['one in the last day, one older: one more goes', [1, 30], 'go'],
    ['none known', [], 'go'],
  ])('counts the messages sent before the replay: %s', (_name, hoursAgo, kind) => {
    const prior = new Map([['c1', hoursAgo.map((h) => new Date(NOON.getTime() - h * 3_600_000))]]);
    expect(new OfflinePolicy(POLICY, prior).decide('c1', 'send-message', NOON)?.kind).toBe(kind);
    // Another contact's history is not this one's.
    expect(new OfflinePolicy(POLICY, prior).decide('c2', 'send-message', NOON)?.kind).toBe('go');
  });

  it('has no say without a policy', () => {
    expect(new OfflinePolicy(undefined).decide('c1', 'send-message', NOON)).toBeUndefined();
  });
});
