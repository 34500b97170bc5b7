// Signed webhook delivery (docs/CRM-API.md §6). One event, one id, one body: every
// subscription of the organization that lists the event kind gets it, and every retry
// re-signs the same body with a fresh timestamp. Any 2xx is success; a redirect, another
// status, a timeout or a connection error is a failure. A failed attempt is retried up
// to 6 times with exponential backoff; every failed attempt counts toward the 12
// consecutive failures that disable the subscription, and a success resets the count.
import { randomBytes } from 'node:crypto';
import type { CrmEvent } from '@crm-rules/crm-contract';
import type { FaultInjector } from '../domain/fault-injector';
import type { OrgState, WebhookRecord } from '../domain/sandbox-state';
import { retryDelayMs, SIGNATURE_HEADER, signatureHeader } from './webhook-signature';

export const MAX_RETRIES = 6;
export const DISABLE_AFTER_FAILURES = 12;
const LOG_CAPACITY = 5000;

export interface DeliveryLogEntry {
  eventId: string;
  type: string;
  orgId: string;
  subscriptionId: string;
  url: string;
  attempt: number;
  outcome: 'delivered' | 'failed' | 'dropped';
  status: number | null;
  error: string | null;
  at: string;
  nextAttemptAt: string | null;
  subscriptionDisabled: boolean;
}

export interface DispatcherOptions {
  retryBaseMs: number;
  timeoutMs: number;
  faults: FaultInjector;
  now(): Date;
  log?: (line: string) => void;
}

interface Job {
  orgId: string;
  event: { id: string; type: string };
  body: string;
  sub: WebhookRecord;
  subscriptions: Map<string, WebhookRecord>;
  attempt: number;
}

export class WebhookDispatcher {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<AbortController>();
  private entries: DeliveryLogEntry[] = [];
  private closed = false;

  constructor(private readonly opts: DispatcherOptions) {}

  /** Builds the event and queues one delivery per matching enabled subscription. */
  publish(org: OrgState, type: string, data: unknown): CrmEvent {
    const event = {
      id: `evt_${randomBytes(12).toString('hex')}`,
      type,
      createdAt: this.opts.now().toISOString(),
      data,
    };
    const body = JSON.stringify(event);
    for (const sub of org.webhooks.values()) {
      if (!sub.enabled || !sub.events.includes(type)) continue;
      this.schedule(
        { orgId: org.id, event: { id: event.id, type }, body, sub, subscriptions: org.webhooks, attempt: 1 },
        0,
      );
    }
    return event;
  }

  deliveries(): DeliveryLogEntry[] {
    return this.entries.map((e) => ({ ...e }));
  }

  clearLog(): void {
    this.entries = [];
  }

  /** Drops every pending retry and aborts attempts in flight (used by reset and close). */
  cancelAll(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const c of this.inFlight) c.abort();
    this.inFlight.clear();
  }

  close(): void {
    this.closed = true;
    this.cancelAll();
  }

  private schedule(job: Job, delayMs: number): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(job);
    }, delayMs);
    this.timers.add(timer);
  }

  private live(job: Job): boolean {
    return !this.closed && job.sub.enabled && job.subscriptions.get(job.sub.id) === job.sub;
  }

  private async attempt(job: Job): Promise<void> {
    if (!this.live(job)) return;
    if (this.opts.faults.takeForDelivery(job.event.type)) {
      this.record(job, 'dropped', null, 'dropped by an injected drop-delivery fault', null);
      return;
    }
    const abort = new AbortController();
    this.inFlight.add(abort);
    let status: number | null = null;
    let error: string | null = null;
    try {
      const res = await fetch(job.sub.url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.any([abort.signal, AbortSignal.timeout(this.opts.timeoutMs)]),
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'crm-sandbox-webhooks/1',
          [SIGNATURE_HEADER]: signatureHeader(
            job.sub.secret,
            job.body,
            Math.floor(this.opts.now().getTime() / 1000),
          ),
        },
        body: job.body,
      });
      status = res.status;
      await res.body?.cancel().catch(() => undefined);
    } catch (err) {
      if (abort.signal.aborted) return; // reset or close: nothing to record
      error = describeFailure(err, this.opts.timeoutMs);
    } finally {
      this.inFlight.delete(abort);
    }
    if (this.closed) return;
    this.settle(job, status, error);
  }

  private settle(job: Job, status: number | null, error: string | null): void {
    const ok = status !== null && status >= 200 && status < 300;
    if (ok) {
      job.sub.consecutiveFailures = 0;
      this.record(job, 'delivered', status, null, null);
      return;
    }
    job.sub.consecutiveFailures += 1;
    if (job.sub.enabled && job.sub.consecutiveFailures >= DISABLE_AFTER_FAILURES) {
      job.sub.enabled = false;
      job.sub.disabledAt = this.opts.now().toISOString();
    }
    const retry = job.attempt <= MAX_RETRIES && job.sub.enabled;
    const delay = retryDelayMs(this.opts.retryBaseMs, job.attempt);
    const nextAt = retry ? new Date(this.opts.now().getTime() + delay).toISOString() : null;
    const reason =
      error ??
      (status !== null && status >= 300 && status < 400
        ? `redirect ${status} not followed`
        : `status ${status}`);
    this.record(job, 'failed', status, reason, nextAt);
    if (retry) this.schedule({ ...job, attempt: job.attempt + 1 }, delay);
  }

  private record(
    job: Job,
    outcome: DeliveryLogEntry['outcome'],
    status: number | null,
    error: string | null,
    nextAttemptAt: string | null,
  ): void {
    const entry: DeliveryLogEntry = {
      eventId: job.event.id,
      type: job.event.type,
      orgId: job.orgId,
      subscriptionId: job.sub.id,
      url: job.sub.url,
      attempt: job.attempt,
      outcome,
      status,
      error,
      at: this.opts.now().toISOString(),
      nextAttemptAt,
      subscriptionDisabled: !job.sub.enabled,
    };
    this.entries.push(entry);
    if (this.entries.length > LOG_CAPACITY) this.entries.splice(0, this.entries.length - LOG_CAPACITY);
    this.opts.log?.(
      `[sandbox] delivery ${entry.eventId} ${entry.type} attempt ${entry.attempt} -> ${outcome}${error ? ` (${error})` : status ? ` (${status})` : ''}`,
    );
  }
}

function describeFailure(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; cause?: { code?: string; message?: string }; message?: string };
  if (e.name === 'TimeoutError') return `timeout after ${timeoutMs} ms`;
  return `connection error: ${e.cause?.code ?? e.cause?.message ?? e.message ?? 'unknown'}`;
}
