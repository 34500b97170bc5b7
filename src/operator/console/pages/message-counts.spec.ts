import { describeMessageCounts, messageCounts, messagePeriods } from './message-counts';
import type { MessagingPolicy } from '../../../language/policy/messaging-policy';

const H = 3_600_000;
const NOW = new Date('2026-06-10T12:00:00Z');
const ago = (h: number) => new Date(NOW.getTime() - h * H);
const POLICY = {
  caps: [
    { max: 2, per: '1d', perMs: 24 * H },
    { max: 5, per: '7d', perMs: 168 * H },
  ],
} as MessagingPolicy;

describe('messages a contact got, for the contact page', () => {
  it.each([
    [
      'no policy: day and week',
      undefined,
      [ago(1), ago(30)],
      'customer messages: 1 in the last 1d, 2 in the last 7d',
    ],
    [
      'with caps',
      POLICY,
      [ago(1), ago(2), ago(100)],
      'customer messages: 2 in the last 1d (cap 2), 3 in the last 7d (cap 5)',
    ],
    ['nothing sent', POLICY, [], 'customer messages: 0 in the last 1d (cap 2), 0 in the last 7d (cap 5)'],
    ['older than the week', undefined, [ago(200)], 'customer messages: 0 in the last 1d, 0 in the last 7d'],
  ])('%s', (_name, policy, sent, text) => {
    expect(describeMessageCounts(messageCounts(sent, NOW, messagePeriods(policy)))).toBe(text);
  });
});
