import { isAttentionSkip } from './message-skips';

describe('isAttentionSkip: a customer message not sent, for a reason an operator must see', () => {
  it.each([
    ['send-message', 'needs_assignee', true],
    ['send-template', 'contact_blocked', true],
    ['send-message', 'policy_cap', true],
    ['send-message', 'quiet_hours', true],
    ['send-message', 'outside_window', true],
    ['send-message', 'channel_not_connected', true],
    ['send-message', 'branch_not_taken', false],
    ['send-message', 'shadow_mode', false],
    ['send-message', 'already_sent_for_trigger', false],
    ['add-tag', 'needs_assignee', false],
    ['react', 'needs_assignee', false],
    ['send-message', null, false],
  ])('%s skipped for %s → %s', (type, reason, expected) => {
    expect(isAttentionSkip(type, reason)).toBe(expected);
  });
});
