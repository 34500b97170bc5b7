// Alerts to a Slack-compatible webhook (ALERT_WEBHOOK_URL): new dead or uncertain actions, failed
// events, a burst of refused signatures, a CRM pause beyond what the engine expects. Checked every
// 15 s on this process; alert-limiter.ts keeps an incident to a handful of messages. Others send
// through notify() (bursts of wrong credentials at any door: admin-auth/credential-throttle.service.ts).
import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../runtime/config/app-config';
import { CrmBudgetView } from '../../../outbound/crm-gateway/crm-budget-view';
import { ActionResultsRepository } from '../../../persistence/ledger/action-results.repository';
import { InboxEventsRepository } from '../../../persistence/ledger/inbox-events.repository';
import { EngineMetrics } from '../../ops/engine-metrics';
import { DeployedVersions } from '../../../runtime/rule-set/deploy/deployed-versions.service';
import { decide, type LimiterState } from './alert-limiter';
import { MESSAGE_SKIP_KINDS } from '../../../language/policy/message-skips';
import { SKIPPED_MESSAGES_WINDOW_MS } from '../live/overview-feed.service';

const CHECK_EVERY_MS = 15_000;
const REFUSED_BURST = 20;
/** A 429 pause longer than this is beyond what the CRM normally asks (Retry-After). */
const LONG_PAUSE_MS = 5 * 60_000;

interface Counts {
  dead: number;
  uncertain: number;
  failedEvents: number;
  refused: number;
  /** Customer messages not sent (message-skips.ts), runs of the last 24 h. */
  skippedMessages: number;
  missingNames: number;
}

@Injectable()
export class AlertsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(AlertsService.name);
  private timer?: NodeJS.Timeout;
  private previous?: Counts;
  private limiter: LimiterState = {};

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly actionResults: ActionResultsRepository,
    private readonly inbox: InboxEventsRepository,
    private readonly gateway: CrmBudgetView,
    private readonly metrics: EngineMetrics,
    private readonly deployed: DeployedVersions,
  ) {}

  onModuleInit(): void {
    if (!this.config.alertWebhookUrl) return;
    this.timer = setInterval(() => void this.check().catch((e) => this.warn('check', e)), CHECK_EVERY_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  async check(now = Date.now()): Promise<void> {
    const [attention, failedEvents, refused, budget, skipped] = await Promise.all([
      this.actionResults.views.countsNeedingAttention(['dead', 'uncertain']),
      this.inbox.views.countFailed(),
      this.refusedSignatures(),
      this.gateway.budgetSnapshot(),
      this.actionResults.views.countSkippedMessages({
        ...MESSAGE_SKIP_KINDS,
        since: new Date(now - SKIPPED_MESSAGES_WINDOW_MS),
      }),
    ]);
    const counts: Counts = {
      dead: attention.dead ?? 0,
      uncertain: attention.uncertain ?? 0,
      failedEvents,
      refused,
      skippedMessages: Object.values(skipped).reduce((n, c) => n + c, 0),
      missingNames: this.deployed.missingNames().length,
    };
    const before = this.previous;
    this.previous = counts;
    if (before) {
      const grew = (k: keyof Counts) => counts[k] - before[k];
      if (grew('dead') > 0)
        await this.alert(
          'dead-actions',
          grew('dead'),
          `${grew('dead')} action(s) went dead (CRM kept failing); see /console/failures`,
        );
      if (grew('uncertain') > 0)
        await this.alert(
          'uncertain-actions',
          grew('uncertain'),
          `${grew('uncertain')} action(s) are uncertain (maybe done, maybe not); see /console/failures`,
        );
      if (grew('failedEvents') > 0)
        await this.alert(
          'failed-events',
          grew('failedEvents'),
          `${grew('failedEvents')} event(s) failed; see /console/failures`,
        );
      if (grew('skippedMessages') > 0)
        await this.alert(
          'skipped-messages',
          grew('skippedMessages'),
          `${grew('skippedMessages')} customer message(s) not sent (${Object.keys(skipped).join(', ')}); see /console/failures`,
        );
      if (grew('missingNames') > 0)
        await this.alert(
          'names-drift',
          grew('missingNames'),
          `the active rules name ${counts.missingNames} thing(s) the CRM no longer has; see /console/deploy`,
        );
      if (grew('refused') >= REFUSED_BURST)
        await this.alert(
          'refused-signatures',
          grew('refused'),
          `${grew('refused')} webhook deliveries refused for their signature in ${CHECK_EVERY_MS / 1000} s`,
        );
    }
    // Set by the subscription check (0 while the CRM has disabled or lost the subscription).
    if ((await this.metrics.subscriptionDelivering.get()).values[0]?.value === 0)
      await this.alert(
        'subscription-not-delivering',
        1,
        'the CRM is not delivering webhook events (subscription disabled or missing); the engine is recreating it, see /health',
      );
    const pauseMs = budget.pausedUntil ? budget.pausedUntil - now : 0;
    if (pauseMs > LONG_PAUSE_MS)
      await this.alert(
        'long-pause',
        1,
        `the CRM paused every call for ${Math.round(pauseMs / 60_000)} more minute(s) (429)`,
      );
  }

  private async refusedSignatures(): Promise<number> {
    const { values } = await this.metrics.events.get();
    return values.filter((v) => v.labels.outcome === 'refused_signature').reduce((n, v) => n + v.value, 0);
  }

  /** Sends one alert, within the per-kind limit; nothing without ALERT_WEBHOOK_URL. */
  async notify(kind: string, occurrences: number, text: string): Promise<void> {
    if (this.config.alertWebhookUrl) await this.alert(kind, occurrences, text);
  }

  private async alert(kind: string, occurrences: number, text: string): Promise<void> {
    const d = decide(this.limiter, kind, occurrences, Date.now());
    this.limiter = d.state;
    if (!d.send) return;
    const more = d.heldBack ? ` (+${d.heldBack} more held back since the last alert of this kind)` : '';
    try {
      const res = await fetch(this.config.alertWebhookUrl!, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: `CRM rules engine: ${text}${more}` }),
        signal: AbortSignal.timeout(5_000),
      });
      if (!res.ok) this.logger.warn(`alert webhook answered HTTP ${res.status}`);
    } catch (err) {
      this.warn('webhook', err); // never the URL: it is a secret (Slack puts the token in it)
    }
  }

  private warn(what: string, err: unknown): void {
    this.logger.warn(`alerts ${what} failed: ${err instanceof Error ? err.name : 'error'}`);
  }
}
