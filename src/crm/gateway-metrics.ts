// Plain counters of the gateway. The ops module turns them into Prometheus series on its own
// registry; keeping them plain lets several gateways live in one process (tests, benchmarks).
// Labels are operation names and outcomes only: never a key, a URL or a message.
import { CrmTransportError, type CrmCallError } from './crm-errors';

export type CallOutcome = 'ok' | 'client_error' | 'server_error' | 'rate_limited' | 'transport_error';

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
}

export class GatewayMetrics {
  private readonly counters: GatewayCounters = {
    calls: {},
    failures: {},
    rateLimited429: 0,
    retries: 0,
    budgetWaits: 0,
    budgetWaitMsTotal: 0,
  };

  attempt(operation: string, outcome: CallOutcome): void {
    const byOutcome = (this.counters.calls[operation] ??= {});
    byOutcome[outcome] = (byOutcome[outcome] ?? 0) + 1;
    if (outcome === 'rate_limited') this.counters.rateLimited429++;
  }

  retry(): void {
    this.counters.retries++;
  }

  failure(operation: string): void {
    this.counters.failures[operation] = (this.counters.failures[operation] ?? 0) + 1;
  }

  waited(ms: number): void {
    // A grant that came back within a millisecond did not really wait for the budget.
    if (ms < 1) return;
    this.counters.budgetWaits++;
    this.counters.budgetWaitMsTotal += ms;
  }

  snapshot(): GatewayCounters {
    return structuredClone(this.counters);
  }
}

export function outcomeOf(err: CrmCallError): CallOutcome {
  if (err instanceof CrmTransportError) return 'transport_error';
  if (err.status === 429) return 'rate_limited';
  return err.status >= 500 ? 'server_error' : 'client_error';
}
