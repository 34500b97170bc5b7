import { verdictLine } from './judge-message.spec-support';
import { judgeMessage, type MessageToJudge } from './judge-message';
import type { MessagingPolicy } from './messaging-policy';

// The one decision (engine gate, rule tests, forecast, diff): suppression, categories, the reply
// grace, quiet hours and caps crossed. Cap 1/day shared by `default` and `marketing`;
// `transactional` has no caps and no quiet hours; `reminders` its own cap of 2/day.
const H = 3_600_000;
const D = 24 * H;
const POLICY: MessagingPolicy = {
  hash: 'x',
  timezone: 'UTC',
  caps: [{ max: 1, per: '1d', perMs: D }],
  overCap: 'skip',
  quietHours: { from: 21 * 60, to: 8 * 60, zone: 'UTC' },
  inQuietHours: 'defer',
  exemptRepliesWithinMs: H,
  calendars: {},
  defaultCategory: 'marketing',
  categories: {
    marketing: {},
    transactional: { caps: [], quietHours: null },
    reminders: { caps: [{ max: 2, per: '1d', perMs: D }], overCap: 'defer' },
  },
  suppress: [
    { name: 'tag opted-out', tag: 'opted-out', categories: ['marketing', 'reminders'] },
    { name: 'tag do-not-contact', tag: 'do-not-contact' },
    { name: 'field consent = "no"', field: 'consent', equals: 'no', categories: ['marketing'] },
  ],
};
const NOON = new Date('2026-06-10T12:00:00Z');
const NIGHT = new Date('2026-06-10T22:30:00Z');
const ago = (at: Date, h: number) => new Date(at.getTime() - h * H);

type Case = [string, Partial<MessageToJudge>, string];
const cases: Case[] = [
  ['nothing against it: goes', {}, 'go'],
  [
    'no category: the default (marketing), capped by one sent today',
    { sent: [{ at: ago(NOON, 2) }] },
    'skip policy_cap',
  ],
  [
    'a transactional one sent today does not count against marketing',
    { sent: [{ at: ago(NOON, 2), category: 'transactional' }] },
    'go',
  ],
  [
    'transactional: no caps, whatever was sent',
    { category: 'transactional', sent: [{ at: ago(NOON, 1) }, { at: ago(NOON, 2) }] },
    'go',
  ],
  ['transactional: no quiet hours', { category: 'transactional', now: NIGHT }, 'go'],
  ['marketing at night: deferred to 08:00', { now: NIGHT }, 'defer quiet_hours 2026-06-11T08:00:00.000Z'],
  [
    'reminders: their own cap of 2, over it deferred (over-cap: defer)',
    {
      category: 'reminders',
      sent: [
        { at: ago(NOON, 1), category: 'reminders' },
        { at: ago(NOON, 3), category: 'reminders' },
      ],
    },
    'defer policy_cap 2026-06-11T09:00:00.000Z',
  ],
  [
    'reminders: a marketing message sent does not count',
    { category: 'reminders', sent: [{ at: ago(NOON, 1) }, { at: ago(NOON, 3), category: 'reminders' }] },
    'go',
  ],
  ['opted-out: a marketing message is suppressed', { contact: { tags: ['opted-out'] } }, 'skip suppressed'],
  [
    'opted-out: a transactional message crosses a marketing opt-out',
    { category: 'transactional', contact: { tags: ['opted-out'] } },
    'go',
  ],
  [
    'do-not-contact (global): no category crosses it',
    { category: 'transactional', contact: { tags: ['do-not-contact'] } },
    'skip suppressed',
  ],
  [
    'suppressed before quiet hours: no deferral of a message that can never go',
    { now: NIGHT, contact: { tags: ['opted-out'] } },
    'skip suppressed',
  ],
  [
    'suppressed before the reply grace: an opt-out holds replies too',
    { contact: { tags: ['opted-out'] }, inboundAt: ago(NOON, 0.5) },
    'skip suppressed',
  ],
  [
    'reply grace: over the cap and at night, goes',
    { now: NIGHT, sent: [{ at: ago(NIGHT, 1) }], inboundAt: ago(NIGHT, 0.5) },
    'go',
  ],
  [
    'a field condition: consent = no holds marketing',
    { contact: { customFields: { consent: 'no' } } },
    'skip suppressed',
  ],
  ['a field condition: consent = yes does not', { contact: { customFields: { consent: 'yes' } } }, 'go'],
  [
    'a field condition holds only its categories',
    { category: 'reminders', contact: { customFields: { consent: 'no' } } },
    'go',
  ],
  ['not a customer message: no say', { type: 'add-tag', contact: { tags: ['do-not-contact'] } }, 'none'],
];

describe('judgeMessage', () => {
  it.each(cases)('%s', (_name, over, want) => {
    const d = judgeMessage(POLICY, {
      type: 'send-message',
      now: NOON,
      contact: {},
      sent: [],
      ...over,
    });
    expect(verdictLine(d)).toBe(want);
  });

  it('says which suppression held the message and for which category', () => {
    expect(
      judgeMessage(POLICY, { type: 'send-template', now: NOON, contact: { tags: ['opted-out'] }, sent: [] }),
    ).toEqual({
      kind: 'skip',
      reason: 'suppressed',
      detail: 'tag opted-out (holds marketing, reminders); category marketing',
    });
  });

  it('a policy with only a suppression still applies', () => {
    const only: MessagingPolicy = {
      ...POLICY,
      caps: [],
      quietHours: undefined,
      categories: undefined,
      defaultCategory: undefined,
    };
    expect(
      judgeMessage(only, { type: 'send-message', now: NOON, contact: { tags: ['do-not-contact'] }, sent: [] })
        ?.kind,
    ).toBe('skip');
  });
});
