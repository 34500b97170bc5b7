// What `npm start` does before the engine boots when it runs its own embedded sandbox (no
// CRM_BASE_URL, ROLE=all): an admin token for the console, and a database that forgets the
// previous start's in-memory CRM (see demo-state.repository.ts). Against a real CRM neither happens.
import { Client } from 'pg';
import type { AppConfig } from '../config/app-config';
import { keepDemoAdminToken } from './demo-admin-token';
import { DemoStateRepository } from './demo-state.repository';
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

/** Empties the CRM-derived tables: the embedded sandbox that filled them is gone with its process. */
export async function forgetPreviousSandbox(config: AppConfig): Promise<void> {
  const client = new Client({ connectionString: config.databaseUrl });
  await client.connect();
  try {
    await new DemoStateRepository(client).forgetPreviousSandbox();
  } finally {
    await client.end();
  }
}
