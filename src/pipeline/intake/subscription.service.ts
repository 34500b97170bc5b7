import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../runtime/config/app-config';
import { CrmWrites } from '../../outbound/crm-gateway/crm-writes';
import type { CompiledRuleSet } from '../../language/matching/compiled-rule-set';
import { isCustomEventKind } from '../../language/rules/format/custom-event-kind';
import { waitEventKinds } from '../../language/rules/gates/wait-event-kinds';
import { WebhookSecretsService } from './webhook-secrets.service';
import { WebhookSubscriptionsRepository } from './webhook-subscriptions.repository';
import { EngineMetrics } from '../../operator/ops/engine-metrics';
import { subscriptionState, type SubscriptionState } from './subscription-state';

/** GET /health with the token reads the CRM's list at most this often. */
const STATE_MAX_AGE_MS = 5_000;

/** The contact events that keep the mirror current: needed as soon as a segment rule is enabled. */
const MIRROR_EVENTS = ['contact.created', 'contact.updated', 'contact.deleted'];

/** Exactly the CRM event kinds this rule set needs delivered (custom sources post on their own). */
export function subscriptionKinds(ruleSet: CompiledRuleSet | undefined): string[] {
  if (!ruleSet) return [];
  const kinds = new Set(ruleSet.eventKinds());
  if (ruleSet.scheduledRules().some((r) => r.enabled)) for (const k of MIRROR_EVENTS) kinds.add(k);
  for (const k of waitEventKinds(ruleSet.rules)) kinds.add(k);
  return [...kinds].filter((k) => !isCustomEventKind(k)).sort();
}

const sameSet = (a: string[], b: string[]) =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

/**
 * Makes sure the CRM delivers exactly the event kinds the rules need to this engine. The secret
 * is only returned at creation, so it is stored (never logged); a subscription whose secret we do
 * not hold, or whose kinds differ, is replaced: the new one is created before the old is deleted
 * so no delivery is lost in between.
 */
@Injectable()
export class SubscriptionService {
  private readonly logger = new Logger(SubscriptionService.name);

  private readonly subscriptions: WebhookSubscriptionsRepository;
  /** The event kinds this engine keeps subscribed; undefined until engine.ts starts managing. */
  private kinds?: () => string[];
  private last?: { at: number; state: Promise<SubscriptionState> };

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly gateway: CrmWrites,
    private readonly secrets: WebhookSecretsService,
    private readonly metrics: EngineMetrics,
    db: DataSource,
  ) {
    this.subscriptions = new WebhookSubscriptionsRepository(db);
  }

  /** From now on `check()` (the periodic job) keeps a subscription for what `kinds()` says. */
  manage(kinds: () => string[]): void {
    this.kinds = kinds;
  }

  /**
   * Whether the CRM delivers what the rules need, read from its list (at most every 5 s):
   * /health (detail) and the console show it. Unmanaged (subscribe off): not_needed.
   */
  state(maxAgeMs = STATE_MAX_AGE_MS, now = Date.now()): Promise<SubscriptionState> {
    if (!this.kinds) return this.observe(); // nothing cached before engine.ts manages it
    if (!this.last || now - this.last.at > maxAgeMs) {
      const state = this.observe().catch((err: Error): SubscriptionState => ({
        status: 'unknown',
        delivering: false,
        checkedAt: new Date().toISOString(),
        message: `subscription not checked: ${err.message}`,
      }));
      this.last = { at: now, state };
    }
    return this.last.state;
  }

  /**
   * The periodic check (subscription-check.processor.ts): a subscription the CRM disabled or lost
   * is said (log line, metric, alert through the gauge) and recreated. Returns what it found.
   */
  async check(): Promise<SubscriptionState> {
    // A job left by an earlier process can run before engine.ts manages the subscription.
    if (!this.kinds) return this.observe();
    const found = await this.observe();
    this.last = { at: Date.now(), state: Promise.resolve(found) };
    if (found.delivering) return found;
    this.logger.error(
      `webhook subscription not delivering (${found.status}): ${found.message}; recreating it`,
    );
    this.metrics.subscriptionRepairs.inc({ cause: found.status });
    await this.ensure(this.kinds());
    this.last = undefined; // read again: the repair changed it
    return found;
  }

  private async observe(): Promise<SubscriptionState> {
    if (!this.kinds) return subscriptionState(undefined, [], [], new Set(), new Date());
    const [remote, known] = await Promise.all([
      this.gateway.listWebhooks({ priority: 'interactive' }),
      this.subscriptions.active(this.config.crm.baseUrl ?? ''),
    ]);
    const state = subscriptionState(
      this.receiverUrl(),
      this.kinds(),
      remote.data,
      new Set(known.map((k) => k.id)),
      new Date(),
    );
    this.metrics.subscriptionDelivering.set(state.delivering ? 1 : 0);
    return state;
  }

  receiverUrl(): string | undefined {
    return this.config.publicUrl ? `${this.config.publicUrl}/webhooks/crm` : undefined;
  }

  async ensure(
    eventKinds: string[],
  ): Promise<{ action: 'kept' | 'created' | 'replaced' | 'none'; id?: string }> {
    const url = this.receiverUrl();
    const crmBaseUrl = this.config.crm.baseUrl ?? '';
    if (!url || eventKinds.length === 0) return { action: 'none' };
    const opts = { priority: 'interactive' as const };
    const remote = (await this.gateway.listWebhooks(opts)).data.filter((s) => s.url === url);
    const known = await this.subscriptions.active(crmBaseUrl);
    // Subscriptions the CRM no longer has (deleted, or a restarted sandbox) are not trusted any more.
    const gone = known.filter((k) => !remote.some((s) => s.id === k.id)).map((k) => k.id);
    if (gone.length) {
      await this.subscriptions.deactivate(gone);
      this.secrets.invalidate();
    }
    // A subscription the CRM disabled (12 failed deliveries, docs/CRM-API.md §6) delivers nothing:
    // it is replaced like a missing one (the CRM has no call to enable it again).
    const keep = remote.find(
      (s) => s.enabled !== false && sameSet(s.events, eventKinds) && known.some((k) => k.id === s.id),
    );
    if (keep) {
      await this.retire(
        remote.filter((s) => s.id !== keep.id).map((s) => s.id),
        crmBaseUrl,
      );
      return { action: 'kept', id: keep.id };
    }
    const created = await this.gateway.createWebhook({ url, events: eventKinds }, opts);
    if (!created.secret) throw new Error('the CRM did not return a secret for the new webhook subscription');
    await this.subscriptions.insert({
      id: created.id,
      crmBaseUrl,
      url,
      events: eventKinds,
      ...this.secrets.sealFor(created.id, created.secret), // never stored in plain text
      active: true,
    });
    this.secrets.invalidate();
    await this.retire(
      remote.map((s) => s.id),
      crmBaseUrl,
    );
    this.logger.log(
      `webhook subscription ${created.id} ${remote.length ? 'replaced' : 'created'} for ${eventKinds.join(', ')} → ${url}`,
    );
    return { action: remote.length ? 'replaced' : 'created', id: created.id };
  }

  private async retire(ids: string[], crmBaseUrl: string): Promise<void> {
    for (const id of ids) {
      await this.gateway.deleteWebhook(id, { priority: 'interactive' }).catch((err) => {
        if (err?.status !== 404) throw err;
      });
      await this.subscriptions.deactivateAt(id, crmBaseUrl);
    }
    if (ids.length) this.secrets.invalidate();
  }
}
