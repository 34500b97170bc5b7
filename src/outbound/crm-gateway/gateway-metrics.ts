// The gateway's Prometheus series (prom-client), on a registry of its own so several gateways
// can live in one process (tests, benchmarks); /metrics merges it with the engine's registry.
// Labels are operation names, outcomes and priorities only: never a key, a URL or a message.
import { Counter, Gauge, Registry } from 'prom-client';
import { CrmTransportError, type CrmCallError } from '../../language/crm-terms/crm-errors';

export type CallOutcome = 'ok' | 'client_error' | 'server_error' | 'rate_limited' | 'transport_error';

/** What a test or a benchmark reads back: the counters as plain numbers. */
export interface GatewayCounters {
  /** Attempts that reached the wire, by operation and outcome. */
  calls: Record<string, Partial<Record<CallOutcome, number>>>;
  /** Calls that failed for good (after retries, or a final 4xx), by operation. */
  failures: Record<string, number>;
  rateLimited429: number;
  retries: number;
  /** Calls that had to wait for a budget slot, and how long they waited in total. */
  budgetWaits: number;
  budgetWaitMsTotal: number;
  /** 429 pauses shortened to CRM_MAX_PAUSE_MS. */
  pausesCapped: number;
  /** Calls given up because their budget wait would have passed CRM_BUDGET_MAX_WAIT_MS. */
  budgetWaitTimeouts: number;
  /** Times this process found the budget's Redis state missing and started cold. */
  coldStarts: number;
}

/** Read at scrape time: the shared budget as Redis holds it now. */
export interface BudgetGauges {
  usedInWindow: number;
  limit: number;
  pausedUntil?: number;
  waiting: { interactive: number; bulk: number };
}

export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly calls = this.counter(
    'crmr_crm_calls_total',
    'CRM calls that reached the wire, by operation and outcome',
    ['operation', 'outcome'],
  );
  private readonly failures = this.counter('crmr_crm_failures_total', 'CRM calls that failed for good', [
    'operation',
  ]);
  private readonly rateLimited = this.counter('crmr_crm_429_total', '429 answers received from the CRM');
  private readonly retries = this.counter('crmr_crm_retries_total', 'Retries of transient CRM failures');
  private readonly waits = this.counter('crmr_budget_waits_total', 'Calls that waited for a budget slot');
  private readonly waitSeconds = this.counter(
    'crmr_budget_wait_seconds_total',
    'Total time calls waited for a budget slot',
  );
  private readonly pausesCapped = this.counter(
    'crmr_crm_pause_capped_total',
    '429 pauses whose Retry-After exceeded CRM_MAX_PAUSE_MS and were capped',
  );
  private readonly waitTimeouts = this.counter(
    'crmr_budget_wait_timeouts_total',
    'Calls given up (retryably) because their budget wait would pass CRM_BUDGET_MAX_WAIT_MS',
  );
  private readonly coldStarts = this.counter(
    'crmr_budget_cold_starts_total',
    'Times the budget state was missing in Redis and the budget started cold (one window closed)',
  );

  /** `budget` feeds the gauges when /metrics is scraped; omitted, there are none. */
  constructor(budget?: () => Promise<BudgetGauges>) {
    if (!budget) return;
    // One Redis read serves every gauge of a scrape.
    let last: { at: number; value: Promise<BudgetGauges | undefined> } | undefined;
    const read = () => {
      if (!last || Date.now() - last.at > 250)
        last = { at: Date.now(), value: budget().catch(() => undefined) };
      return last.value;
    };
    this.gauge(
      'crmr_budget_used',
      'Calls counting against the CRM limit in the current window (all processes)',
      async (g) => {
        const b = await read();
        if (b) g.set(b.usedInWindow);
      },
    );
    this.gauge('crmr_budget_limit', 'The CRM limit per window', async (g) => {
      const b = await read();
      if (b) g.set(b.limit);
    });
    this.gauge('crmr_budget_tokens', 'Calls still available in the current window', async (g) => {
      const b = await read();
      if (b) g.set(Math.max(0, b.limit - b.usedInWindow));
    });
    this.gauge(
      'crmr_budget_waiting',
      'Calls waiting for a slot (all processes)',
      async (g) => {
        const b = await read();
        if (!b) return;
        g.set({ priority: 'interactive' }, b.waiting.interactive);
        g.set({ priority: 'bulk' }, b.waiting.bulk);
      },
      ['priority'],
    );
    this.gauge(
      'crmr_budget_paused',
      '1 while a CRM 429 pause (or a cold start) holds every call',
      async (g) => {
        const b = await read();
        if (b) g.set(b.pausedUntil ? 1 : 0);
      },
    );
  }

  attempt(operation: string, outcome: CallOutcome): void {
    this.calls.inc({ operation, outcome });
    if (outcome === 'rate_limited') this.rateLimited.inc();
  }

  retry(): void {
    this.retries.inc();
  }

  failure(operation: string): void {
    this.failures.inc({ operation });
  }

  waited(ms: number): void {
    // A grant that came back within a millisecond did not really wait for the budget.
    if (ms < 1) return;
    this.waits.inc();
    this.waitSeconds.inc(ms / 1000);
  }

  pauseCapped(): void {
    this.pausesCapped.inc();
  }

  waitTimedOut(): void {
    this.waitTimeouts.inc();
  }

  coldStart(): void {
    this.coldStarts.inc();
  }

  async snapshot(): Promise<GatewayCounters> {
    const values = async (c: Counter) => (await c.get()).values;
    const total = async (c: Counter) => (await values(c)).reduce((sum, v) => sum + v.value, 0);
    const calls: GatewayCounters['calls'] = {};
    for (const v of await values(this.calls)) {
      const byOutcome = (calls[String(v.labels.operation)] ??= {});
      byOutcome[v.labels.outcome as CallOutcome] = v.value;
    }
    const failures: GatewayCounters['failures'] = {};
    for (const v of await values(this.failures)) failures[String(v.labels.operation)] = v.value;
    return {
      calls,
      failures,
      rateLimited429: await total(this.rateLimited),
      retries: await total(this.retries),
      budgetWaits: await total(this.waits),
      budgetWaitMsTotal: Math.round((await total(this.waitSeconds)) * 1000),
      pausesCapped: await total(this.pausesCapped),
      budgetWaitTimeouts: await total(this.waitTimeouts),
      coldStarts: await total(this.coldStarts),
    };
  }

  private counter(name: string, help: string, labelNames: string[] = []): Counter {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  private gauge(
    name: string,
    help: string,
    collect: (g: Gauge) => Promise<void>,
    labelNames: string[] = [],
  ): void {
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        await collect(this);
      },
    });
  }
}

export function outcomeOf(err: CrmCallError): CallOutcome {
  if (err instanceof CrmTransportError) return 'transport_error';
  if (err.status === 429) return 'rate_limited';
  return err.status >= 500 ? 'server_error' : 'client_error';
}
