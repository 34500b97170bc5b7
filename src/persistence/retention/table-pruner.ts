// How retention finds the statement that prunes each growing table (GROWING_TABLES, retention.ts)
// without importing the tables' owners: each owner's module provides a class marked
// @PrunesTable('<table>'), and RetentionService collects them through Nest's DiscoveryService.
// Persistence stays below: the owners import this file, never the reverse.
import { DiscoveryService } from '@nestjs/core';
import { GROWING_TABLES, type PrunedTableName } from './retention';

/** Deletes up to `limit` rows older than `cutoff` that are no longer needed; returns how many went. */
export interface TablePruner {
  prune(cutoff: Date, limit: number): Promise<number>;
}

const Discoverable = DiscoveryService.createDecorator<PrunedTableName>();

/** Marks a provider as the pruner of one table; the class must implement TablePruner. */
export function PrunesTable(table: PrunedTableName) {
  return (target: abstract new (...args: never[]) => TablePruner): void => {
    Discoverable(table)(target);
  };
}

/** The tables pruned by a statement of their own, in the order the daily job prunes them. */
export const PRUNED_TABLES = GROWING_TABLES.filter((t) => !('prunedWith' in t)).map(
  (t) => t.table as PrunedTableName,
);

/**
 * One pruner per pruned table, or an error naming what is missing or doubled (a table added to
 * GROWING_TABLES without its owner's pruner fails at start, not at the first night's prune).
 */
export function prunerRegistry(
  found: readonly (readonly [table: string | undefined, pruner: TablePruner])[],
): Record<PrunedTableName, TablePruner> {
  const byTable = new Map<string, TablePruner[]>();
  for (const [table, pruner] of found)
    byTable.set(String(table), [...(byTable.get(String(table)) ?? []), pruner]);
  const problems = [
    ...PRUNED_TABLES.filter((t) => !byTable.has(t)).map((t) => `no pruner for ${t}`),
    ...[...byTable].filter(([, ps]) => ps.length > 1).map(([t, ps]) => `${ps.length} pruners for ${t}`),
    ...[...byTable.keys()]
      .filter((t) => !(PRUNED_TABLES as string[]).includes(t))
      .map((t) => `a pruner for ${t}, which GROWING_TABLES does not prune by its own statement`),
  ];
  if (problems.length > 0)
    throw new Error(`retention: ${problems.join('; ')} (a @PrunesTable provider in the owner's module)`);
  return Object.fromEntries(PRUNED_TABLES.map((t) => [t, byTable.get(t)![0]])) as Record<
    PrunedTableName,
    TablePruner
  >;
}

/** Every @PrunesTable provider of the application, by table. */
export function discoverPruners(discovery: DiscoveryService): Record<PrunedTableName, TablePruner> {
  return prunerRegistry(
    discovery
      .getProviders({ metadataKey: Discoverable.KEY })
      .map((w) => [discovery.getMetadataByDecorator(Discoverable, w), w.instance as TablePruner] as const),
  );
}
