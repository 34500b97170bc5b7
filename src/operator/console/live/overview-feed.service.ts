// The overview's live numbers, computed once per tick for however many pages watch (one shared
// stream), and only while someone watches. Cheap numbers every second; counts every 5 s.
import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { from, interval, Observable, share, startWith, switchMap } from 'rxjs';
import { CrmBudgetView } from '../../../outbound/crm-gateway/crm-budget-view';
import { EngineMetrics } from '../../ops/engine-metrics';
import { ACTIONS_QUEUE, EVENTS_QUEUE, SWEEPS_QUEUE } from '../../../runtime/queues/queue-jobs';
import { ActionResultsRepository } from '../../../persistence/ledger/action-results.repository';
import { InboxEventsRepository } from '../../../persistence/ledger/inbox-events.repository';
import { RunsRepository } from '../../../persistence/ledger/runs.repository';
import { periodStart } from '../period';
import { MESSAGE_SKIP_KINDS } from '../../../language/policy/message-skips';

export const RUN_STATUSES = [
  'not_matched',
  'suppressed',
  'paused',
  'pending',
  'running',
  'succeeded',
  'failed',
  'dead',
];
export const ACTION_STATUSES = ['pending', 'running', 'succeeded', 'skipped', 'failed', 'dead', 'uncertain'];
const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;
const COUNTS_EVERY_MS = 5_000;
const RATE_WINDOW_MS = 10_000;

type CountsByStatus = Record<string, number>;
export const ATTENTION_STATUSES = ['dead', 'uncertain', 'failed'] as const;
/** Customer messages skipped (message-skips.ts) count as needing attention this long after their run. */
export const SKIPPED_MESSAGES_WINDOW_MS = 24 * 3600_000;

export interface FailureCounts {
  deadActions: number;
  uncertainActions: number;
  failedActions: number;
  failedEvents: number;
  /** Customer messages not sent for a reason an operator must see, runs of the last 24 h. */
  skippedMessages: number;
}

export interface OverviewSnapshot {
  eventsPerSecond: number;
  budget: { used: number; limit: number; note: string };
  runs: CountsByStatus;
  actions: CountsByStatus;
  failures: FailureCounts & { total: number };
  queues: Record<string, Record<(typeof QUEUE_STATES)[number], number>>;
  /** Events stored and not yet processed: a job of the events queue carries a whole intake batch. */
  pendingEvents: number;
}

@Injectable()
export class OverviewFeed {
  private counts?: {
    at: number;
    runs: CountsByStatus;
    actions: CountsByStatus;
    failures: OverviewSnapshot['failures'];
    pendingEvents: number;
  };
  private readonly deliveries: { at: number; total: number }[] = [];
  readonly stream: Observable<OverviewSnapshot>;

  constructor(
    private readonly runs: RunsRepository,
    private readonly actionResults: ActionResultsRepository,
    private readonly inbox: InboxEventsRepository,
    private readonly gateway: CrmBudgetView,
    private readonly metrics: EngineMetrics,
    @InjectQueue(EVENTS_QUEUE) private readonly events: Queue,
    @InjectQueue(ACTIONS_QUEUE) private readonly actions: Queue,
    @InjectQueue(SWEEPS_QUEUE) private readonly sweeps: Queue,
  ) {
    this.stream = interval(1000).pipe(
      startWith(0),
      switchMap(() => from(this.snapshot())),
      share(),
    );
  }

  async snapshot(): Promise<OverviewSnapshot> {
    const [budget, queues, counts, eventsPerSecond] = await Promise.all([
      this.gateway.budgetSnapshot(),
      this.queueDepths(),
      this.slowCounts(),
      this.deliveryRate(),
    ]);
    const paused = budget.pausedUntil
      ? `paused ${Math.ceil((budget.pausedUntil - Date.now()) / 1000)} s (CRM 429)`
      : '';
    const waiting = budget.waiting.interactive + budget.waiting.bulk;
    return {
      eventsPerSecond,
      budget: {
        used: budget.usedInWindow,
        limit: budget.limit,
        note: paused || `${waiting} call(s) waiting for a slot`,
      },
      runs: counts.runs,
      actions: counts.actions,
      failures: counts.failures,
      queues,
      pendingEvents: counts.pendingEvents,
    };
  }

  /** Deliveries this process's intake stored (accepted + duplicate) per second, over the last 10 s. */
  private async deliveryRate(): Promise<number> {
    const { values } = await this.metrics.events.get();
    const total = values.filter((v) => v.labels.outcome === 'accepted').reduce((n, v) => n + v.value, 0);
    const now = Date.now();
    this.deliveries.push({ at: now, total });
    while (this.deliveries.length > 1 && this.deliveries[0].at < now - RATE_WINDOW_MS)
      this.deliveries.shift();
    const first = this.deliveries[0];
    const seconds = (now - first.at) / 1000;
    return seconds > 0 ? Math.round(((total - first.total) / seconds) * 10) / 10 : 0;
  }

  private async slowCounts() {
    if (this.counts && Date.now() - this.counts.at < COUNTS_EVERY_MS) return this.counts;
    const since = periodStart('1h');
    const skipsSince = new Date(Date.now() - SKIPPED_MESSAGES_WINDOW_MS);
    const [runs, actions, attention, failedEvents, pendingEvents, skipped] = await Promise.all([
      this.runs.views.countsByStatusSince(since),
      this.actionResults.views.countsByStatusSince(since),
      this.actionResults.views.countsNeedingAttention(ATTENTION_STATUSES),
      this.inbox.views.countFailed(),
      this.inbox.views.countPending(),
      this.actionResults.views.countSkippedMessages({ ...MESSAGE_SKIP_KINDS, since: skipsSince }),
    ]);
    const failures: FailureCounts = {
      deadActions: attention.dead ?? 0,
      uncertainActions: attention.uncertain ?? 0,
      failedActions: attention.failed ?? 0,
      failedEvents,
      skippedMessages: Object.values(skipped).reduce((n, c) => n + c, 0),
    };
    const total =
      failures.deadActions +
      failures.uncertainActions +
      failures.failedActions +
      failures.failedEvents +
      failures.skippedMessages;
    this.counts = { at: Date.now(), runs, actions, failures: { ...failures, total }, pendingEvents };
    return this.counts;
  }

  private async queueDepths(): Promise<OverviewSnapshot['queues']> {
    const entries = await Promise.all(
      [this.events, this.actions, this.sweeps].map(async (q) => {
        const c = await q.getJobCounts(...QUEUE_STATES, 'prioritized');
        // BullMQ keeps jobs with a priority apart from plain waiting ones: both are waiting.
        return [
          q.name,
          {
            waiting: (c.waiting ?? 0) + (c.prioritized ?? 0),
            active: c.active ?? 0,
            delayed: c.delayed ?? 0,
            failed: c.failed ?? 0,
          },
        ] as const;
      }),
    );
    return Object.fromEntries(entries);
  }
}
