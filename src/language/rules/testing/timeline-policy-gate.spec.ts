import type { MessagingPolicy } from '../../policy/messaging-policy';
import type { EvaluationFacts, RuleAction, RuleDefinition } from '../format/rule-types';
import { timelinePolicyStep, type TimelinePolicyStep } from './timeline-policy-gate';

// The simulated clock's policy gate: what it does before each action, table by table.
const H = 3_600_000;
const NOW = new Date('2026-06-10T12:00:00Z');
const NIGHT = new Date('2026-06-10T22:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);

const POLICY: MessagingPolicy = {
  hash: 'x',
  timezone: 'UTC',
  caps: [{ max: 2, per: '1d', perMs: 24 * H }],
  overCap: 'skip',
  quietHours: { from: 21 * 60, to: 8 * 60, zone: 'UTC' },
  inQuietHours: 'defer',
  exemptRepliesWithinMs: H,
  calendars: {},
};

const MESSAGE = { type: 'send-message', text: 'Hi' } as unknown as RuleAction;
const TAG = { type: 'add-tag', tag: 'x' } as unknown as RuleAction;
const facts = (now: Date, event = 'contact.created', message?: Record<string, unknown>): EvaluationFacts => ({
  event: { type: event, data: message ?? {} },
  contact: { id: 'c1' },
  ...(message ? { message } : {}),
  now,
});
const runAt = (action: RuleAction, trigger: EvaluationFacts) => ({
  rule: { id: 'r', actions: [TAG, action] } as unknown as RuleDefinition,
  next: 1,
  trigger,
});
const inbound = { isOutgoing: false, createdAt: '2026-06-10T21:50:00Z' };

it.each<[string, MessagingPolicy | undefined, RuleAction, EvaluationFacts, Date[], TimelinePolicyStep]>([
  ['no policy', undefined, MESSAGE, facts(NOW), [], { kind: 'ungated' }],
  ['not a customer message', POLICY, TAG, facts(NIGHT), [ago(H), ago(H)], { kind: 'ungated' }],
  ['within the cap', POLICY, MESSAGE, facts(NOW), [ago(H)], { kind: 'send' }],
  [
    'cap reached',
    POLICY,
    MESSAGE,
    facts(NOW),
    [ago(H), ago(2 * H)],
    {
      kind: 'skip',
      reason: 'policy_cap',
      detail: expect.stringContaining('2') as string,
      note: expect.stringMatching(/^action 2 skipped: policy_cap \(/) as string,
    },
  ],
  [
    'quiet hours',
    POLICY,
    MESSAGE,
    facts(NIGHT),
    [],
    {
      kind: 'defer',
      until: new Date('2026-06-11T08:00:00Z'),
      note: expect.stringMatching(/^action 2 deferred: quiet_hours \(/) as string,
    },
  ],
  [
    'a reply within the grace',
    POLICY,
    MESSAGE,
    facts(NIGHT, 'message.created', inbound),
    [],
    { kind: 'send' },
  ],
])('%s', (_name, policy, action, at, sentAt, expected) => {
  const sent = sentAt.map((t) => ({ at: t }));
  expect(timelinePolicyStep(policy, runAt(action, at), at, sent)).toEqual(expected);
});
