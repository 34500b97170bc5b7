import type { BulkRunRow } from '../../../persistence/ledger/bulk-runs.repository';
import { bulkRunPage, bulkRunSummary, pastedIds } from './bulk-run-page';

const row: BulkRunRow = {
  id: 'b1',
  ruleId: 'gold',
  ruleVersion: 'abcdef0123456789',
  rulesCommit: null,
  source: 'backfill',
  sourceDetail: null,
  state: 'pending_confirmation',
  contactIds: ['c1', 'c2', 'c3'],
  forecast: { contacts: 3, callsPerRun: 1, calls: 3, minutesIfIdle: 0.1, minutesAtMinShare: 0.1 },
  evaluated: 10,
  runsCreated: 0,
  createdBy: 'activation',
  decidedBy: null,
  detail: null,
  createdAt: new Date('2026-11-28T10:00:00Z'),
  updatedAt: new Date('2026-11-28T10:00:00Z'),
};

describe('bulk run pages', () => {
  it.each([
    ['pending_confirmation', 'pending confirmation', 'warn', true],
    ['running', 'running', 'info', false],
    ['done', 'done', 'ok', false],
    ['cancelled', 'cancelled', 'muted', false],
    ['failed', 'failed', 'bad', false],
  ] as const)('%s reads "%s" (%s)', (state, text, tone, pending) => {
    expect(bulkRunSummary({ ...row, state })).toMatchObject({ state: text, tone, pending, contacts: 3 });
  });

  it('says what matched, the forecast in words and how far it went', () => {
    const view = bulkRunPage({ ...row, runsCreated: 2 }, [{ id: 'c1', label: 'Ada', href: '/x' }], {
      succeeded: 2,
    });
    expect(view).toMatchObject({
      source: 'backfill on activation',
      matched: '3 of 10 contact(s) evaluated match',
      forecast:
        "3 CRM call(s) (1 a run): about 0.1 min at the whole budget, 0.1 min at bulk's guaranteed share while interactive work waits",
      more: 2,
      runs: [{ status: 'succeeded', n: 2 }],
      progress: '2 of 3 run(s) created',
    });
  });

  it.each([
    ['a\nb', ['a', 'b']],
    [' a, b ;c  d ', ['a', 'b', 'c', 'd']],
    ['', []],
    [undefined, []],
    [['a'], []],
  ])('pastedIds(%j)', (text, ids) => {
    expect(pastedIds(text)).toEqual(ids);
  });
});
