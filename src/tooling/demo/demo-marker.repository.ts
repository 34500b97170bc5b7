// Every statement on `demo_marker`: the embedded demo's mark on a database it created.
import type { Queryable } from '../../persistence/sql/queryable';

export class DemoMarkerRepository {
  constructor(private readonly db: Queryable) {}

  /** Two demo starts at once: the second waits for the first's decision (inside a transaction). */
  async lock(): Promise<void> {
    await this.db.query(`LOCK TABLE demo_marker IN EXCLUSIVE MODE`);
  }

  async isMarked(): Promise<boolean> {
    const rows: unknown[] = await this.db.query(`SELECT 1 FROM demo_marker WHERE id = 1`);
    return rows.length > 0;
  }

  async mark(): Promise<void> {
    await this.db.query(`INSERT INTO demo_marker (id) VALUES (1) ON CONFLICT (id) DO NOTHING`);
  }
}
