// "How many messages did this contact get?" on the contact page: customer messages (the ones the
// messaging policy counts) per period, beside the policy's caps when there is a policy. Pure.
import type { MessagingPolicy } from '../../../language/policy/messaging-policy';

const DAY = 86_400_000;

/** Without a policy: the day and the week, uncapped. */
const DEFAULT_PERIODS = [
  { per: '1d', perMs: DAY },
  { per: '7d', perMs: 7 * DAY },
];

export interface MessageCount {
  per: string;
  sent: number;
  /** The policy's cap for the period, if any. */
  max?: number;
}

export function messagePeriods(
  policy: MessagingPolicy | undefined,
): { per: string; perMs: number; max?: number }[] {
  return policy && policy.caps.length > 0 ? policy.caps : DEFAULT_PERIODS;
}

/** `sentAt`: start times of the contact's customer messages within the longest period. */
export function messageCounts(
  sentAt: readonly Date[],
  now: Date,
  periods: readonly { per: string; perMs: number; max?: number }[],
): MessageCount[] {
  return periods.map((p) => ({
    per: p.per,
    sent: sentAt.filter((t) => t.getTime() > now.getTime() - p.perMs).length,
    ...(p.max !== undefined ? { max: p.max } : {}),
  }));
}

/** `customer messages: 2 in the last 1d (cap 2), 3 in the last 7d (cap 5)`. */
export function describeMessageCounts(counts: readonly MessageCount[]): string {
  const parts = counts.map(
    (c) => `${c.sent} in the last ${c.per}${c.max !== undefined ? ` (cap ${c.max})` : ''}`,
  );
  return `customer messages: ${parts.join(', ')}`;
}
