import type { Contact } from '@crm-rules/crm-contract';
import type { RuleAction } from '../../language/rules/format/rule-types';
import type { ResolvedAction } from '../../language/catalogue/catalogue';
import type { RunShape } from './settle-at-creation';
import { settleInBatchOrder, staysPendingUnlessSettled, type BatchRun } from './settle-batch-order';

const VIP = { id: 'tag-vip', name: 'vip', color: '#f00' };
const contact = (id: string): Contact =>
  ({
    id,
    name: 'Ana',
    tags: [VIP],
    customFields: {},
    updatedAt: '2025-01-01T00:00:00Z',
  }) as unknown as Contact;

// A no-op (the contact has vip) settles when quiet; a write (tag new) never does.
const NO_OP: [RuleAction, ResolvedAction] = [
  { type: 'add-tag', tag: 'vip' },
  { type: 'add-tag', tagId: 'tag-vip' },
];
const WRITE: [RuleAction, ResolvedAction] = [
  { type: 'add-tag', tag: 'new' },
  { type: 'add-tag', tagId: 'tag-new' },
];

/**
 * One run of the table: its contact, what it does, and how admission and the database saw it.
 * `quiet` false: the database holds an unfinished run or a lease for the contact.
 */
interface Row {
  contact: string;
  does: 'no-op' | 'write' | 'excluded';
  quiet?: boolean;
  shape?: Partial<RunShape>;
}

function batchRun(row: Row): BatchRun {
  const [action, resolved] = row.does === 'write' ? WRITE : NO_OP;
  const shape: RunShape = {
    status: 'pending',
    priority: 'interactive',
    mode: 'live',
    paused: false,
    timing: undefined,
    actions: [action],
    ...row.shape,
  };
  return {
    contactId: row.contact,
    shape,
    // An excluded shape (e.g. a messaging action, a wait) is not read at all.
    read:
      row.does === 'excluded'
        ? undefined
        : { quietInDatabase: row.quiet ?? true, contact: contact(row.contact), resolved: [resolved] },
  };
}

describe('settleInBatchOrder', () => {
  it.each<[string, Row[], boolean[]]>([
    ['one quiet no-op', [{ contact: 'a', does: 'no-op' }], [true]],
    ['a no-op on a contact busy in the database', [{ contact: 'a', does: 'no-op', quiet: false }], [false]],
    [
      'a no-op behind an earlier pending write of the same contact',
      [
        { contact: 'a', does: 'write' },
        { contact: 'a', does: 'no-op' },
      ],
      [false, false],
    ],
    [
      'a no-op behind an earlier pending run of another contact',
      [
        { contact: 'b', does: 'write' },
        { contact: 'a', does: 'no-op' },
      ],
      [false, true],
    ],
    [
      'a no-op behind an earlier settled no-op of the same contact (it changed nothing)',
      [
        { contact: 'a', does: 'no-op' },
        { contact: 'a', does: 'no-op' },
      ],
      [true, true],
    ],
    [
      'a no-op BEFORE a pending write of the same contact (order matters, not presence)',
      [
        { contact: 'a', does: 'no-op' },
        { contact: 'a', does: 'write' },
        { contact: 'a', does: 'no-op' },
      ],
      [true, false, false],
    ],
    [
      'a no-op behind an excluded run of the same contact (left pending for the runner)',
      [
        { contact: 'a', does: 'excluded', shape: { timing: { window: {} } as RunShape['timing'] } },
        { contact: 'a', does: 'no-op' },
      ],
      [false, false],
    ],
    [
      'a no-op behind a suppressed, a paused and a shadow run of the same contact (all finished)',
      [
        { contact: 'a', does: 'excluded', shape: { status: 'suppressed' } },
        { contact: 'a', does: 'excluded', shape: { paused: true } },
        { contact: 'a', does: 'excluded', shape: { mode: 'shadow' } },
        { contact: 'a', does: 'no-op' },
      ],
      [false, false, false, true],
    ],
    [
      'a no-op behind a no-op not settled because the database is busy: both wait',
      [
        { contact: 'a', does: 'no-op', quiet: false },
        { contact: 'a', does: 'no-op', quiet: true },
      ],
      [false, false],
    ],
  ])('%s', (_name, rows, settled) => {
    expect(settleInBatchOrder(rows.map(batchRun)).map((skips) => skips !== undefined)).toEqual(settled);
  });

  it('gives each settled run the guard skips the runner would record', () => {
    expect(settleInBatchOrder([batchRun({ contact: 'a', does: 'no-op' })])).toEqual([
      [{ reason: 'no_change', detail: 'contact already has tag vip (tag-vip)' }],
    ]);
  });
});

describe('staysPendingUnlessSettled', () => {
  const base: RunShape = {
    status: 'pending',
    priority: 'interactive',
    mode: 'live',
    paused: false,
    timing: undefined,
    actions: [],
  };
  it.each<[Partial<RunShape>, boolean]>([
    [{}, true],
    [{ priority: 'bulk' }, true],
    [{ status: 'suppressed' }, false],
    [{ paused: true }, false],
    [{ mode: 'shadow' }, false],
  ])('%j -> %s', (over, pending) => {
    expect(staysPendingUnlessSettled({ ...base, ...over })).toBe(pending);
  });
});
