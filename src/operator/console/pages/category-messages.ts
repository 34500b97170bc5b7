// The rule page's customer messages per category (issue 33): sent, not sent (each reason) and
// failed, one row per category the rule's messages declared (messages in arms not taken left out). A message that declares none is
// counted under the policy's default category, named so (`default (no category declared)`), so
// an operator sees which messages the default's caps and quiet hours govern. Pure.
import type { MessagingPolicy } from '../../../language/policy/messaging-policy';
import { categoryOf } from '../../../language/policy/policy-categories';

export interface CategoryMessageRow {
  category: string;
  sent: number;
  notSent: number;
  /** `policy_cap 2, suppressed 1`, or '' */
  reasons: string;
  failed: number;
  /** Pending, running or uncertain. */
  open: number;
}

const SENT = new Set(['succeeded']);
const FAILED = new Set(['failed', 'dead']);

export function categoryMessageRows(
  rows: readonly { category: string | null; status: string; reason: string | null; n: number }[],
  policy: MessagingPolicy | undefined,
): CategoryMessageRow[] {
  const byName = new Map<string, CategoryMessageRow & { why: Map<string, number> }>();
  const fallback = `${categoryOf(policy ?? ({} as MessagingPolicy), undefined)} (no category declared)`;
  for (const r of rows) {
    // A message in an arm the run did not take was never meant for the contact: not a message.
    if (r.reason === 'branch_not_taken') continue;
    const name = r.category ?? fallback;
    const row = byName.get(name) ?? {
      category: name,
      sent: 0,
      notSent: 0,
      reasons: '',
      failed: 0,
      open: 0,
      why: new Map<string, number>(),
    };
    if (SENT.has(r.status)) row.sent += r.n;
    else if (r.status === 'skipped') {
      row.notSent += r.n;
      const why = r.reason ?? 'skipped';
      row.why.set(why, (row.why.get(why) ?? 0) + r.n);
    } else if (FAILED.has(r.status)) row.failed += r.n;
    else row.open += r.n;
    byName.set(name, row);
  }
  return [...byName.values()]
    .sort((a, b) => a.category.localeCompare(b.category))
    .map(({ why, ...row }) => ({
      ...row,
      reasons: [...why]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([r, n]) => `${r} ${n}`)
        .join(', '),
    }));
}
