import { PRUNED_TABLES, prunerRegistry, type TablePruner } from './table-pruner';

const pruner = (): TablePruner => ({ prune: () => Promise.resolve(0) });
const everyTable = () => PRUNED_TABLES.map((t) => [t, pruner()] as const);

describe('the registry of table pruners', () => {
  it('lists the tables GROWING_TABLES prunes by a statement of their own, in its order', () => {
    expect(PRUNED_TABLES).toEqual([
      'runs',
      'inbox_events',
      'contact_journal',
      'segment_sweeps',
      'contact_mirror_tombstones',
      'rule_control_audit',
      'console_sessions',
    ]);
  });

  it('hands each table the pruner its owner registered', () => {
    const found = everyTable();
    const registry = prunerRegistry(found);
    for (const [table, p] of found) expect(registry[table]).toBe(p);
  });

  it.each([
    [
      'a table without a pruner',
      everyTable().filter(([t]) => t !== 'segment_sweeps'),
      'no pruner for segment_sweeps',
    ],
    ['a table with two', [...everyTable(), ['runs', pruner()] as const], '2 pruners for runs'],
    [
      'a pruner for a table pruned by a cascade',
      [...everyTable(), ['action_results', pruner()] as const],
      'a pruner for action_results, which GROWING_TABLES does not prune by its own statement',
    ],
    [
      'a provider without its table',
      [...everyTable(), [undefined, pruner()] as const],
      'a pruner for undefined',
    ],
  ])('refuses %s, naming it', (_case, found, message) => {
    expect(() => prunerRegistry(found)).toThrow(message);
  });
});
