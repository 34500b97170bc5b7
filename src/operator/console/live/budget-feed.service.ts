// The budget page's samples: one per second while a page watches, the last five minutes kept
// so a page opened now starts with a plot, not a blank. Reads the shared state through the
// gateway (Redis is the truth for every process); backlog from the ledger every 5 s.
import { Inject, Injectable } from '@nestjs/common';
import { from, interval, Observable, share, switchMap } from 'rxjs';
import { APP_CONFIG, type AppConfig } from '../../../runtime/config/app-config';
import { CrmBudgetView } from '../../../outbound/crm-gateway/crm-budget-view';
import { ActionResultsRepository } from '../../../persistence/ledger/action-results.repository';
import { backlogEta } from './backlog-eta';

const HISTORY = 300;
const BACKLOG_EVERY_MS = 5_000;

export interface BudgetSample {
  /** Epoch seconds (uPlot's x unit). */
  t: number;
  used: number;
  interactive: number;
  bulk: number;
  limit: number;
  /** 1 while a CRM 429 pause holds every call. */
  paused: number;
  pauseRemainingMs: number;
  /** 429 answers this process received since the previous sample. */
  rateLimited: number;
  rateLimitedTotal: number;
  waiting: { interactive: number; bulk: number };
  backlog: { interactive: number; bulk: number };
  eta: { interactiveMs: number; bulkMs: number };
}

@Injectable()
export class BudgetFeed {
  private readonly history: BudgetSample[] = [];
  private backlog?: { at: number; interactive: number; bulk: number };
  readonly stream: Observable<BudgetSample>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly actionResults: ActionResultsRepository,
    private readonly gateway: CrmBudgetView,
  ) {
    this.stream = interval(1000).pipe(
      switchMap(() => from(this.sample())),
      share(),
    );
  }

  recent(): BudgetSample[] {
    return [...this.history];
  }

  async sample(): Promise<BudgetSample> {
    const [snap, pending] = await Promise.all([this.gateway.budgetSnapshot(), this.pendingActions()]);
    const now = Date.now();
    const rateLimitedTotal = (await this.gateway.counters()).rateLimited429;
    const previous = this.history[this.history.length - 1];
    const pauseRemainingMs = snap.pausedUntil ? Math.max(0, snap.pausedUntil - now) : 0;
    const backlog = {
      interactive: pending.interactive + snap.waiting.interactive,
      bulk: pending.bulk + snap.waiting.bulk,
    };
    const eta = backlogEta({
      backlog,
      limit: snap.limit,
      windowMs: snap.windowMs,
      bulkMinShare: this.config.crm.budget.bulkMinShare,
      usedInWindow: snap.usedInWindow,
      pauseRemainingMs,
    });
    const sample: BudgetSample = {
      t: Math.floor(now / 1000),
      used: snap.usedInWindow,
      interactive: snap.usedInWindow - snap.bulkInWindow,
      bulk: snap.bulkInWindow,
      limit: snap.limit,
      paused: pauseRemainingMs > 0 ? 1 : 0,
      pauseRemainingMs,
      rateLimited: previous ? Math.max(0, rateLimitedTotal - previous.rateLimitedTotal) : 0,
      rateLimitedTotal,
      waiting: snap.waiting,
      backlog,
      eta: { interactiveMs: eta.interactiveMs, bulkMs: eta.bulkMs },
    };
    if (previous?.t === sample.t) this.history[this.history.length - 1] = sample;
    else this.history.push(sample);
    if (this.history.length > HISTORY) this.history.shift();
    return sample;
  }

  private async pendingActions() {
    if (!this.backlog || Date.now() - this.backlog.at > BACKLOG_EVERY_MS)
      this.backlog = { at: Date.now(), ...(await this.actionResults.views.unfinishedByPriority()) };
    return this.backlog;
  }
}
