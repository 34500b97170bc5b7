import type { MessagingPolicy } from '../../../language/policy/messaging-policy';
import { categoryMessageRows } from './category-messages';

describe("the rule page's customer messages per category", () => {
  const rows = [
    { category: 'marketing', status: 'succeeded', reason: null, n: 3 },
    { category: 'marketing', status: 'skipped', reason: 'suppressed', n: 2 },
    { category: 'marketing', status: 'skipped', reason: 'policy_cap', n: 1 },
    { category: null, status: 'succeeded', reason: null, n: 4 },
    { category: null, status: 'dead', reason: null, n: 1 },
    { category: 'transactional', status: 'uncertain', reason: null, n: 1 },
    { category: 'marketing', status: 'skipped', reason: 'branch_not_taken', n: 7 },
  ];

  it('counts sent, not sent with each reason, failed and in progress; names the default for undeclared', () => {
    const policy = { defaultCategory: 'service' } as MessagingPolicy;
    expect(categoryMessageRows(rows, policy)).toEqual([
      {
        category: 'marketing',
        sent: 3,
        notSent: 3,
        reasons: 'policy_cap 1, suppressed 2',
        failed: 0,
        open: 0,
      },
      { category: 'service (no category declared)', sent: 4, notSent: 0, reasons: '', failed: 1, open: 0 },
      { category: 'transactional', sent: 0, notSent: 0, reasons: '', failed: 0, open: 1 },
    ]);
  });

  it('without a policy the undeclared are the `default` category', () => {
    expect(categoryMessageRows(rows.slice(3, 4), undefined)[0].category).toBe(
      'default (no category declared)',
    );
  });
});
