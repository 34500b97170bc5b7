// How `crm-rules run` talks to the running engine's admin API: the token (ADMIN_TOKEN, else the
// embedded demo's kept .data/admin-token), the runs of a rule for a contact in a recent period,
// and the wait for a run's outcome. No Nest, no database: plain fetch.
import { readDemoAdminToken } from '../demo/demo-admin-token';

export interface AdminToken {
  token: string;
  /** Where it came from, for the messages: the variable or the demo's file. */
  source: 'ADMIN_TOKEN' | '.data/admin-token';
}

export function adminTokenOf(configured: string | undefined, root: string): AdminToken | undefined {
  if (configured) return { token: configured, source: 'ADMIN_TOKEN' };
  const kept = readDemoAdminToken(root);
  return kept ? { token: kept, source: '.data/admin-token' } : undefined;
}

export interface RunSummary {
  id: string;
  status: string;
  reason: string | null;
  triggerKey: string;
  createdAt: string;
}

export interface RunOutcome extends RunSummary {
  actionResults: {
    action: { type?: string };
    status: string;
    reason: string | null;
    errorMessage: string | null;
  }[];
}

/** A run is still moving while pending or running; any other status is how it ended (or waits). */
export const UNSETTLED = ['pending', 'running'];

export class EngineAdminClient {
  constructor(
    readonly base: string,
    private readonly token: string,
  ) {}

  async request<T>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body?: T }> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: { 'x-admin-token': this.token, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    let parsed: T | undefined;
    try {
      parsed = text ? (JSON.parse(text) as T) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, body: parsed };
  }

  /** The rule's runs for the contact since `since` that did something (not_matched left out), newest first. */
  async recentRuns(ruleId: string, contactId: string, since: Date): Promise<RunSummary[]> {
    const q = new URLSearchParams({
      rule: ruleId,
      contact: contactId,
      since: since.toISOString(),
      limit: '20',
    });
    const res = await this.request<{ data: RunSummary[] }>('GET', `/admin/runs?${q}`);
    if (res.status !== 200 || !res.body) throw new Error(`GET /admin/runs answered ${res.status}`);
    return res.body.data.filter((r) => r.status !== 'not_matched');
  }

  /** Polls the run until it leaves pending / running, or `timeoutMs` passes (then its last state). */
  async waitForOutcome(
    runId: string,
    timeoutMs: number,
    pollMs = 250,
    sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms)),
  ): Promise<RunOutcome> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await this.request<RunOutcome>('GET', `/admin/runs/${encodeURIComponent(runId)}`);
      if (res.status !== 200 || !res.body) throw new Error(`GET /admin/runs/${runId} answered ${res.status}`);
      if (!UNSETTLED.includes(res.body.status) || Date.now() >= deadline) return res.body;
      await sleep(pollMs);
    }
  }
}

/** "5 min ago" and the like, for the recent-run notice. */
export function ago(from: Date, now: Date): string {
  const s = Math.max(0, Math.round((now.getTime() - from.getTime()) / 1000));
  if (s < 90) return `${s} s ago`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min ago`;
  return `${Math.round(s / 3600)} h ago`;
}
