import { warnMessageSkip } from './message-skip-log';

const run = { id: 'run-1', rule_id: 'welcome', contact_id: 'c-1' };

describe('warnMessageSkip: a skipped message is logged, without personal data', () => {
  it('warns with rule, run, contact ids and the reason for a message skipped for needs_assignee', () => {
    const lines: string[] = [];
    const row = { action_index: 0, action: { type: 'send-message', text: 'Hello Dana, your code 1234' } };
    expect(warnMessageSkip({ warn: (m: string) => lines.push(m) }, run, row, 'needs_assignee')).toBe(true);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      'rule welcome: send-message (action 0) not sent to contact c-1: needs_assignee',
    );
    expect(lines[0]).toContain('run run-1');
    expect(lines[0]).not.toContain('Dana');
    expect(lines[0]).not.toContain('1234');
  });

  it('stays quiet for a skip by design and for actions that are not messages', () => {
    const lines: string[] = [];
    const warn = { warn: (m: string) => lines.push(m) };
    expect(
      warnMessageSkip(warn, run, { action_index: 1, action: { type: 'send-message' } }, 'branch_not_taken'),
    ).toBe(false);
    expect(
      warnMessageSkip(warn, run, { action_index: 1, action: { type: 'add-tag' } }, 'needs_assignee'),
    ).toBe(false);
    expect(lines).toEqual([]);
  });

  it.each<[string, string, boolean]>([
    ['assign', 'pool_full', true],
    ['assign', 'pool_empty', true],
    ['assign', 'no_change', false],
    ['assign', 'outside_window', false],
    ['send-message', 'pool_full', false],
  ])('an assign from a pool nobody could take is heard: %s %s → %s', (type, reason, heard) => {
    const lines: string[] = [];
    const row = { action_index: 2, action: { type } };
    expect(warnMessageSkip({ warn: (m: string) => lines.push(m) }, run, row, reason)).toBe(heard);
    expect(lines).toEqual(
      heard ? [expect.stringContaining(`assign (action 2) not done for contact c-1: ${reason}`)] : [],
    );
  });
});
