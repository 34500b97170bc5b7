import { verdictLine } from './judge-message.spec-support';
import { judgeMessage, type MessageToJudge } from './judge-message';
import type { MessagingPolicy } from './messaging-policy';

// The one decision with the categories' own quiet days (holiday calendars) and a segment
// suppression, crossed with quiet hours, caps and the reply grace. Marketing (the default) keeps
// the organization's quiet hours and quiet days (`holidays`); reminders have their own quiet days
// (`closures`); transactional has neither. `dormant` is a segment rule's segment (no interaction
// for 90 days), judged on the contact at the time of the message.
const H = 3_600_000;
const D = 24 * H;
const POLICY: MessagingPolicy = {
  hash: 'x',
  timezone: 'Europe/Berlin',
  caps: [{ max: 1, per: '1d', perMs: D }],
  overCap: 'skip',
  quietHours: { from: 21 * 60, to: 8 * 60, zone: 'Europe/Berlin' },
  inQuietHours: 'defer',
  exemptRepliesWithinMs: H,
  calendars: {
    holidays: ['2026-12-24', '2026-12-25', '2026-12-26'],
    closures: ['2026-08-14'],
  },
  quietDays: ['holidays'],
  defaultCategory: 'marketing',
  categories: {
    marketing: {},
    reminders: { quietDays: ['closures'], caps: [] },
    transactional: { caps: [], quietHours: null, quietDays: null },
  },
  suppress: [
    {
      name: 'segment dormant',
      segment: 'dormant',
      filters: { lastInteractionBefore: 'now-90d' },
      categories: ['marketing'],
    },
  ],
};
const XMAS_NOON = new Date('2026-12-25T11:00:00Z'); // 12:00 in Berlin
const CLOSURE_NOON = new Date('2026-08-14T10:00:00Z');
const JUNE_NOON = new Date('2026-06-10T10:00:00Z');
const contactLastSeen = (at: string) => ({
  record: { id: 'c1', createdAt: '2025-01-01T00:00:00Z', lastInteractionAt: at, tags: [] },
});

type Case = [string, Partial<MessageToJudge>, string];
const cases: Case[] = [
  [
    'marketing on a holiday: deferred past the run of holidays (Dec 27, 00:00 Berlin)',
    { now: XMAS_NOON },
    'defer quiet_hours 2026-12-26T23:00:00.000Z',
  ],
  ['transactional on a holiday: no quiet days, goes', { now: XMAS_NOON, category: 'transactional' }, 'go'],
  [
    'reminders on a holiday: their own calendar (closures) replaces the top-level one',
    { now: XMAS_NOON, category: 'reminders' },
    'go',
  ],
  [
    'reminders on a closure day: deferred to the next day',
    { now: CLOSURE_NOON, category: 'reminders' },
    'defer quiet_hours 2026-08-14T22:00:00.000Z',
  ],
  ['marketing on a closure day: not its calendar', { now: CLOSURE_NOON }, 'go'],
  [
    'a reply within the grace on a holiday is exempt, as from quiet hours',
    { now: XMAS_NOON, inboundAt: new Date(XMAS_NOON.getTime() - H / 2) },
    'go',
  ],
  [
    'a dormant contact (no interaction for 90 days): marketing suppressed',
    { now: JUNE_NOON, contact: contactLastSeen('2026-01-01T00:00:00Z') },
    'skip suppressed',
  ],
  [
    'an active contact is not in the segment',
    { now: JUNE_NOON, contact: contactLastSeen('2026-06-01T00:00:00Z') },
    'go',
  ],
  [
    'the segment holds marketing only: a transactional message to a dormant contact goes',
    { now: JUNE_NOON, category: 'transactional', contact: contactLastSeen('2026-01-01T00:00:00Z') },
    'go',
  ],
  [
    'suppression comes before quiet days: a dormant contact on a holiday is skipped, not deferred',
    { now: XMAS_NOON, contact: contactLastSeen('2026-01-01T00:00:00Z') },
    'skip suppressed',
  ],
  [
    'membership is judged at the message: 89 days after the last interaction, not yet dormant',
    { now: new Date('2026-03-31T10:00:00Z'), contact: contactLastSeen('2026-01-01T00:00:00Z') },
    'go',
  ],
  [
    'membership is judged at the message: 91 days after, dormant',
    { now: new Date('2026-04-02T10:00:00Z'), contact: contactLastSeen('2026-01-01T00:00:00Z') },
    'skip suppressed',
  ],
  [
    'quiet days before quiet hours before caps: a holiday evening defers to the day after',
    { now: new Date('2026-12-24T21:30:00Z'), sent: [{ at: new Date('2026-12-24T08:00:00Z') }] },
    'defer quiet_hours 2026-12-26T23:00:00.000Z',
  ],
  ['a contact without a record (no creation date) is in no segment', { now: JUNE_NOON }, 'go'],
];

describe('judgeMessage: quiet days and segment suppression', () => {
  it.each(cases)('%s', (_name, over, want) => {
    const d = judgeMessage(POLICY, { type: 'send-message', now: JUNE_NOON, contact: {}, sent: [], ...over });
    expect(verdictLine(d)).toBe(want);
  });

  it('names the quiet day and its calendar, and the segment', () => {
    expect(
      judgeMessage(POLICY, { type: 'send-message', now: XMAS_NOON, contact: {}, sent: [] }),
    ).toMatchObject({
      detail: 'quiet day 2026-12-25 (calendar holidays) in Europe/Berlin',
    });
    expect(
      judgeMessage(POLICY, {
        type: 'send-message',
        now: JUNE_NOON,
        contact: contactLastSeen('2026-01-01T00:00:00Z'),
        sent: [],
      }),
    ).toMatchObject({
      reason: 'suppressed',
      detail: 'segment dormant (holds marketing); category marketing',
    });
  });
});
