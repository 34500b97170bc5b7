// `crm-rules plan --rule ID`: asks the running engine (GET /admin/rules/:id/plan) what the next
// sweep of a segment rule would do. The engine holds the contact mirror, the memberships and the
// budget, so the plan is its answer; nothing is written anywhere. Needs ADMIN_TOKEN.
import { loadConfig } from '../../../runtime/config/load-config';
import { formatPlan } from './plan-format';
import type { SweepPlan } from './plan-sweep';

export interface PlanOptions {
  rule: string;
  /** Engine address; default http://HOST:PORT of the environment (the same variables as the engine). */
  url?: string;
  /** Contacts listed per side (entering, leaving). */
  sample?: string | number;
  format?: 'text' | 'json';
}

/** Resolves to the exit code: 0 plan printed, 1 the engine refused or failed, 2 usage. */
export async function planCommand(
  opts: PlanOptions,
  println: (line?: string) => void,
  printErr: (line: string) => void,
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  const config = loadConfig(env);
  const token = config.adminToken;
  if (!token) {
    printErr('plan: ADMIN_TOKEN is not set (the plan comes from the engine admin API)');
    return 2;
  }
  const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
  const base = (opts.url ?? `http://${host}:${config.port}`).replace(/\/+$/, '');
  const sample = Number(opts.sample ?? 20);
  const url = `${base}/admin/rules/${encodeURIComponent(opts.rule)}/plan?sample=${Number.isFinite(sample) ? sample : 20}`;
  let res: Response;
  try {
    res = await fetch(url, { headers: { 'x-admin-token': token } });
  } catch (err) {
    printErr(
      `plan: the engine is not reachable at ${base} (${(err as Error).message}); start it (npm start) or pass --url`,
    );
    return 1;
  }
  const body = (await res.json().catch(() => undefined)) as { message?: unknown } | undefined;
  if (!res.ok) {
    printErr(`plan: ${res.status} ${typeof body?.message === 'string' ? body.message : res.statusText}`);
    return 1;
  }
  if (opts.format === 'json') println(JSON.stringify(body, null, 2));
  else for (const line of formatPlan(body as unknown as SweepPlan)) println(line);
  return 0;
}
