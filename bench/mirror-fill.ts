// The mirror of a bench engine filled the way production fills it: a manual sweep of the segment
// rule (throughput-support's SEGMENT_RULE) whose full sync mirrors every CRM contact through the
// gateway. Shared by bench:throughput and bench:storage.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { SEGMENT_RULE } from './throughput-support';

const pause = () => new Promise((r) => setTimeout(r, 250));

/**
 * Sweeps, waits for the sweep's bulk writes to finish (so no measured phase pays them) and writes
 * up to 20,000 mirrored contacts to a JSON file for the load generator; returns its path.
 */
export async function fillMirror(apiUrl: string, adminToken: string, ds: DataSource): Promise<string> {
  const t = performance.now();
  const res = await fetch(`${apiUrl}/admin/rules/${SEGMENT_RULE}/sweep`, {
    method: 'POST',
    headers: { 'x-admin-token': adminToken },
  });
  if (res.status !== 202) throw new Error(`sweep not queued: ${res.status} ${await res.text()}`);
  for (;;) {
    const [s] = await ds.query(`SELECT status, detail FROM segment_sweeps WHERE rule_id = $1`, [
      SEGMENT_RULE,
    ]);
    if (s?.status === 'succeeded') break;
    if (s?.status === 'failed' || s?.status === 'skipped') throw new Error(`sweep ${s.status}: ${s.detail}`);
    await pause();
  }
  const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM contact_mirror`);
  console.log(`mirror filled by a sweep: ${n} contacts in ${Math.round(performance.now() - t)} ms`);
  for (;;) {
    const [a] = await ds.query(
      `SELECT count(*) FILTER (WHERE status IN ('pending', 'running'))::int AS open,
              count(*) FILTER (WHERE status = 'succeeded')::int AS written FROM action_results`,
    );
    if (a.open === 0) {
      console.log(
        `the sweep's actions finished: ${a.written} CRM writes (bulk) in ${Math.round(performance.now() - t)} ms`,
      );
      break;
    }
    await pause();
  }
  const raw: { raw: unknown }[] = await ds.query(
    `SELECT raw FROM contact_mirror ORDER BY random() LIMIT 20000`,
  );
  const file = join(mkdtempSync(join(tmpdir(), 'crmr-bench-contacts-')), 'contacts.json');
  writeFileSync(file, JSON.stringify(raw.map((r) => r.raw)));
  return file;
}
