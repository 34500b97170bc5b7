// The embedded demo's admin token: without one the console answers 503 and a newcomer is stuck.
// `npm start` with no CRM_BASE_URL and no ADMIN_TOKEN generates a random token once and keeps it
// in .data/ (git-ignored, beside the set-up's runtime.env), so the next start logs in the same way.
// Never used against a real CRM: there the operator sets ADMIN_TOKEN.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const DEMO_ADMIN_TOKEN_FILE = join('.data', 'admin-token');

export interface DemoAdminToken {
  token: string;
  /** True when this start created it (first start, or the file was removed). */
  generated: boolean;
  /** Where it is kept, relative to the working directory. */
  file: string;
}

/** 48 hex digits: random, at least 32 characters (load-config's floor). */
const VALID = /^[0-9a-f]{48}$/;

export function keepDemoAdminToken(root = process.cwd()): DemoAdminToken {
  const path = join(root, DEMO_ADMIN_TOKEN_FILE);
  if (existsSync(path)) {
    const kept = readFileSync(path, 'utf8').trim();
    if (VALID.test(kept)) return { token: kept, generated: false, file: DEMO_ADMIN_TOKEN_FILE };
  }
  const token = randomBytes(24).toString('hex');
  mkdirSync(join(root, '.data'), { recursive: true });
  // Owner-only: the token opens the admin API and the console.
  writeFileSync(path, `${token}\n`, { mode: 0o600 });
  return { token, generated: true, file: DEMO_ADMIN_TOKEN_FILE };
}

/** The kept demo token, read only (`crm-rules run` without ADMIN_TOKEN); undefined when none is kept. */
export function readDemoAdminToken(root = process.cwd()): string | undefined {
  const path = join(root, DEMO_ADMIN_TOKEN_FILE);
  if (!existsSync(path)) return undefined;
  const kept = readFileSync(path, 'utf8').trim();
  return VALID.test(kept) ? kept : undefined;
}
