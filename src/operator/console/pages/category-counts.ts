// The contact page's customer messages per policy category (policy.yaml `categories:`), over the
// longest period the page counts: `by category in the last 7d: marketing 1, service 3`. A message
// without a category counts in the policy's default one. Empty without categories. Pure.
import type { MessagingPolicy } from '../../../language/policy/messaging-policy';
import { categoryOf, type SentMessage } from '../../../language/policy/policy-categories';

export function describeCategoryCounts(
  sent: readonly SentMessage[],
  policy: MessagingPolicy | undefined,
  period: { per: string; perMs: number },
  now: Date,
): string {
  if (!policy?.categories) return '';
  const counts = new Map<string, number>();
  for (const m of sent)
    if (m.at.getTime() > now.getTime() - period.perMs) {
      const c = categoryOf(policy, m.category);
      counts.set(c, (counts.get(c) ?? 0) + 1);
    }
  const parts = [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([c, n]) => `${c} ${n}`);
  return `by category in the last ${period.per}: ${parts.length ? parts.join(', ') : 'none'}`;
}
