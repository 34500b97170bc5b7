// The CLI's way to the CRM: the engine's client and call policy (retries, 429 pause) behind a
// budget local to this process, at bulk priority. No Redis, no Nest: the CLI runs in CI.
import type { AppConfig } from '../../runtime/config/app-config';
import { CrmClient } from '../../outbound/crm-gateway/crm-client';
import { callWithBudget, type CallDeps } from '../../outbound/crm-gateway/gateway-call';
import { GatewayMetrics } from '../../outbound/crm-gateway/gateway-metrics';
import { localBudget } from './local-budget';

export interface CliCrm {
  readonly baseUrl: string;
  readonly client: CrmClient;
  call<T>(operation: string, fn: (client: CrmClient) => Promise<T>): Promise<T>;
}

/**
 * Where the CLI's CRM calls go: --url, else CRM_BASE_URL, else the embedded sandbox that `npm start`
 * runs (127.0.0.1:SANDBOX_PORT, its demo key), so the demo needs no environment.
 */
export function cliCrmTarget(config: AppConfig, url?: string): { baseUrl: string; embedded: boolean } {
  const given = url ?? config.crm.baseUrl;
  if (given) return { baseUrl: given.replace(/\/+$/, ''), embedded: false };
  return { baseUrl: `http://127.0.0.1:${config.sandbox.port}`, embedded: true };
}

export function cliCrm(config: AppConfig['crm'], baseUrl: string): CliCrm {
  const client = new CrmClient({ baseUrl, apiKey: config.apiKey, timeoutMs: config.timeoutMs });
  const budget = localBudget(config.budget.limit, config.budget.windowMs);
  const deps: CallDeps = {
    acquire: () => budget.acquire(),
    pause: (ms) => budget.pause(ms),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    random: Math.random,
    now: Date.now,
    maxRetries: config.maxRetries,
    maxPauseMs: config.maxPauseMs,
    maxWaitMs: config.budgetMaxWaitMs,
    metrics: new GatewayMetrics(),
  };
  return {
    baseUrl,
    client,
    call: (operation, fn) =>
      callWithBudget(deps, operation, { priority: 'bulk', correlationId: 'crm-rules' }, () => fn(client)),
  };
}

/** Every page of a paged list, in order. */
export async function allPages<T>(
  crm: CliCrm,
  operation: string,
  page: (client: CrmClient, n: number) => Promise<{ data: T[]; hasNext: boolean }>,
): Promise<T[]> {
  const out: T[] = [];
  for (let n = 1; ; n++) {
    const res = await crm.call(operation, (c) => page(c, n));
    out.push(...res.data);
    if (!res.hasNext || res.data.length === 0) return out;
  }
}
