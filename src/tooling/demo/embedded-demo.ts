// What `npm start` does before the engine boots when it runs its own embedded sandbox (no
// CRM_BASE_URL, ROLE=all): an admin token for the console, and a database that forgets the
// previous start's in-memory CRM (see demo-state.repository.ts), only if the demo marked it
// (demo-database.ts). Against a real CRM neither happens.
import { Client } from 'pg';
import type { AppConfig } from '../../runtime/config/app-config';
import { keepDemoAdminToken } from './demo-admin-token';
import { demoDatabaseVerdict, DemoRefusedError } from './demo-database';
import { DemoMarkerRepository } from './demo-marker.repository';
import { DemoStateRepository, rowsOver } from './demo-state.repository';
import type { AdminTokenSource } from './start-banner';

/** True for the single-process demo that `npm start` runs on a fresh clone. */
export function runsEmbeddedDemo(config: AppConfig): boolean {
  return !config.crm.baseUrl && config.role === 'all';
}

/** The admin token the console will take: ADMIN_TOKEN, else (embedded demo only) the kept demo token. */
export function demoAdminToken(config: AppConfig, root = process.cwd()): AdminTokenSource {
  if (config.adminToken) return { kind: 'env' };
  if (!runsEmbeddedDemo(config)) return { kind: 'none' };
  const kept = keepDemoAdminToken(root);
  config.adminToken = kept.token;
  return { kind: 'demo', ...kept };
}

/**
 * Empties the CRM-derived tables: the embedded sandbox that filled them is gone with its process.
 * Only on a database the demo marked (the first demo start on an empty database marks it); throws
 * DemoRefusedError, having erased nothing, with NODE_ENV=production or on a database holding
 * rows but no marker (demo-database.ts).
 */
export async function forgetPreviousSandbox(config: AppConfig): Promise<void> {
  const client = new Client({ connectionString: config.databaseUrl });
  await client.connect();
  try {
    const db = rowsOver(client);
    const state = new DemoStateRepository(db);
    const marker = new DemoMarkerRepository(db);
    await state.transaction(async () => {
      await marker.lock();
      const verdict = demoDatabaseVerdict({
        nodeEnv: config.nodeEnv,
        marked: await marker.isMarked(),
        tablesWithRows: await state.tablesWithRows(),
        database: decodeURIComponent(new URL(config.databaseUrl).pathname.replace(/^\//, '')),
      });
      if (verdict.kind === 'refuse') throw new DemoRefusedError(verdict.message);
      if (verdict.mark) await marker.mark();
      await state.forgetPreviousSandbox();
    });
  } finally {
    await client.end();
  }
}
