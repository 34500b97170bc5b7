// The partitions' own copies of an index of a partitioned table (Postgres names them itself, e.g.
// runs_p20261129_contact_id_idx): a plan that uses any of them uses the index.
import type { DataSource } from 'typeorm';

export async function indexFamily(ds: DataSource, parentIndex: string): Promise<string[]> {
  const rows: { name: string }[] = await ds.query(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = (SELECT oid FROM pg_class WHERE relname = $1)`,
    [parentIndex],
  );
  return [parentIndex, ...rows.map((r) => r.name)];
}

/** Whether an EXPLAIN's text scans one of the index's partition copies. */
export async function planUsesIndex(ds: DataSource, plan: string, parentIndex: string): Promise<boolean> {
  return (await indexFamily(ds, parentIndex)).some((name) => plan.includes(name));
}
