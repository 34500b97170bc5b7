import type { MessagingPolicy } from './messaging-policy';
import { OfflinePolicy, type PolicyOutcome } from './offline-policy';

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

/** Submits each message, settles, and answers each outcome (undefined: the policy has no say). */
function judged(
  p: OfflinePolicy,
  messages: [string, string, Date, Record<string, unknown>?][],
): (PolicyOutcome | undefined)[] {
  const tickets = messages.map(([contact, type, at, fields]) =>
    p.submit(contact, { type, at, contact: { customFields: fields } }),
  );
  p.settle();
  return tickets.map((t) => t?.outcome);
}
const kinds = (o: (PolicyOutcome | undefined)[]) =>
  o.map((x) => (x?.kind === 'sent' && x.deferred ? `deferred ${x.deferred}` : x?.kind));

describe('OfflinePolicy (forecast and diff replays)', () => {
  it('counts customer messages per contact across rules and skips over the cap', () => {
    const out = judged(new OfflinePolicy(POLICY), [
      ...['send-message', 'add-tag', 'send-template', 'react', 'send-message'].map(
        (type) => ['c1', type, NOON] as [string, string, Date],
      ),
      ['c2', 'send-message', NOON],
    ]);
    // add-tag and react are not customer messages: the policy has no say.
    expect(kinds(out)).toEqual(['sent', undefined, 'sent', undefined, 'skipped', 'sent']);
  });

  it.each([
    ['UTC evening: deferred', '2026-06-10T22:00:00Z', {}, 'deferred quiet_hours'],
    [
      'evening in New York is afternoon there: goes',
      '2026-06-10T22:00:00Z',
      { tz: 'America/New_York' },
      'sent',
    ],
  ])('reads quiet hours in the contact zone: %s', (_name, now, fields, kind) => {
    expect(kinds(judged(new OfflinePolicy(POLICY), [['c1', 'send-message', new Date(now), fields]]))).toEqual(
      [kind],
    );
  });

  it.each([
    ['two in the last day: capped at once', [1, 5], 'skipped'],
    ['one in the last day, one older: one more goes', [1, 30], 'sent'],
    ['none known', [], 'sent'],
  ])('counts the messages sent before the replay: %s', (_name, hoursAgo, kind) => {
    const prior = new Map([['c1', hoursAgo.map((h) => new Date(NOON.getTime() - h * 3_600_000))]]);
    const out = judged(new OfflinePolicy(POLICY, prior), [
      ['c1', 'send-message', NOON],
      // Another contact's history is not this one's.
      ['c2', 'send-message', NOON],
    ]);
    expect(kinds(out)).toEqual([kind, 'sent']);
  });

  // Issue 33, "offline tools disagree with the engine": the caps were judged at deferral, so three
  // messages deferred by quiet hours all counted as sent. Judged at release, as the engine does.
  it('judges caps at release: three messages at 22:30 under a cap of 1/day are one at 08:00 and two policy_cap', () => {
    const policy = { ...POLICY, caps: [{ max: 1, per: '1d', perMs: D }] };
    const evening = new Date('2026-06-10T22:30:00Z');
    const out = judged(
      new OfflinePolicy(policy),
      ['send-message', 'send-template', 'send-message'].map(
        (t) => ['c1', t, evening] as [string, string, Date],
      ),
    );
    expect(out).toEqual([
      { kind: 'sent', at: new Date('2026-06-11T08:00:00Z'), deferred: 'quiet_hours' },
      { kind: 'skipped', reason: 'policy_cap', detail: '1 message(s) per 1d reached' },
      { kind: 'skipped', reason: 'policy_cap', detail: '1 message(s) per 1d reached' },
    ]);
  });

  it('judges messages in time order whatever the order they were submitted in', () => {
    const policy = { ...POLICY, caps: [{ max: 1, per: '1d', perMs: D }] };
    const out = judged(new OfflinePolicy(policy), [
      ['c1', 'send-message', new Date(NOON.getTime() + 3_600_000)],
      ['c1', 'send-message', NOON],
    ]);
    expect(kinds(out)).toEqual(['skipped', 'sent']);
  });

  it('defers over the cap to when it frees, then sends (over-cap: defer)', () => {
    const policy: MessagingPolicy = { ...POLICY, overCap: 'defer', caps: [{ max: 1, per: '1d', perMs: D }] };
    const out = judged(new OfflinePolicy(policy), [
      ['c1', 'send-message', NOON],
      ['c1', 'send-message', NOON],
    ]);
    expect(out[1]).toEqual({ kind: 'sent', at: new Date(NOON.getTime() + D), deferred: 'policy_cap' });
  });

  it('releases each of 60 messages over a cap of 1/day in turn (over-cap: defer), one a day', () => {
    const policy: MessagingPolicy = { ...POLICY, overCap: 'defer', caps: [{ max: 1, per: '1d', perMs: D }] };
    const out = judged(
      new OfflinePolicy(policy),
      Array.from({ length: 60 }, () => ['c1', 'send-message', NOON] as [string, string, Date]),
    );
    expect(out.map((o) => o?.kind === 'sent' && (o.at.getTime() - NOON.getTime()) / D)).toEqual(
      Array.from({ length: 60 }, (_, i) => i),
    );
  });

  it('has no say without a policy', () => {
    expect(
      new OfflinePolicy(undefined).submit('c1', { type: 'send-message', at: NOON, contact: {} }),
    ).toBeUndefined();
  });
});
