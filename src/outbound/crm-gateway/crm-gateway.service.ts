// The only way the engine calls the CRM: every client operation, same name and arguments plus
// a trailing CallOptions, behind the shared budget (priorities, 429 pause) and retries.
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../runtime/config/app-config';
import { BudgetGate } from './budget-gate';
import { estimateWaitMs } from './budget-math';
import { CrmClient, type CrmOperation } from './crm-client';
import { CrmApiError } from '../../language/crm-terms/crm-errors';
import { CRM_REDIS } from './crm-redis';
import { callWithBudget, type CallDeps } from './gateway-call';
import { GatewayMetrics, type GatewayCounters } from './gateway-metrics';
import { budgetKeyPrefix, crmScope, defaultBudgetParams, RateBudget, type Priority } from './rate-budget';

export interface CallOptions {
  /** interactive: event-triggered work; bulk: segment sweeps, mirror refresh. */
  priority: Priority;
  /** Carried into the log line of a final failure (run id, event id...). */
  correlationId?: string;
  /**
   * false: retry only failures that prove the CRM did not apply the call (429, connection
   * refused); a timeout, a 5xx or a reset may have applied it. For writes that must happen at
   * most once (messages): the caller looks the outcome up instead. Default true.
   */
  retryUnclear?: boolean;
  /** Told how long each attempt waited for its budget slot, just before it goes on the wire. */
  onGranted?(waitedMs: number): void;
}

export interface BudgetSnapshot {
  /** Calls counting against the limit right now, across all processes. */
  usedInWindow: number;
  /** Of those, calls made for bulk work (the rest were interactive). */
  bulkInWindow: number;
  limit: number;
  windowMs: number;
  /** Epoch ms until which every process holds its calls (a CRM 429). */
  pausedUntil?: number;
  /** Calls waiting for a slot, across all processes. */
  waiting: { interactive: number; bulk: number };
}

/** The client's arguments, then the call options. */
type Args<K extends CrmOperation> = [...Parameters<CrmClient[K]>, opts: CallOptions];
type Result<K extends CrmOperation> = ReturnType<CrmClient[K]>;

@Injectable()
export class CrmGateway implements OnApplicationShutdown {
  private readonly logger = new Logger(CrmGateway.name);
  private readonly client: CrmClient;
  private readonly budget: RateBudget;
  private readonly gate: BudgetGate;
  /** prom-client series of this gateway; /metrics merges them with the engine's. */
  readonly metrics: GatewayMetrics;
  private readonly deps: CallDeps;

  constructor(@Inject(APP_CONFIG) config: AppConfig, @Inject(CRM_REDIS) redis: Redis) {
    const { crm } = config;
    // engine.ts sets it (the embedded sandbox's address) before the application is built.
    if (!crm.baseUrl) throw new Error('the CRM base URL is not set');
    this.client = new CrmClient({ baseUrl: crm.baseUrl, apiKey: crm.apiKey, timeoutMs: crm.timeoutMs });
    const params = defaultBudgetParams(crm.budget, crm.timeoutMs, crm.budgetColdStart);
    this.budget = new RateBudget(redis, budgetKeyPrefix(config.redis.prefix, crmScope(crm)), params);
    this.metrics = new GatewayMetrics(() => this.budgetSnapshot());
    this.gate = new BudgetGate(this.budget, {
      onColdStart: (ms) => {
        this.metrics.coldStart();
        this.logger.warn(
          `the CRM budget's state is missing in Redis (flush, restart or failover): no CRM call for ${ms} ms, ` +
            `so calls made just before cannot add up to twice the limit`,
        );
      },
    });
    this.deps = {
      acquire: (priority, deadline) => this.gate.acquire(priority, deadline),
      pause: (ms) => this.budget.pause(ms),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      random: Math.random,
      now: Date.now,
      maxRetries: crm.maxRetries,
      maxPauseMs: crm.maxPauseMs,
      maxWaitMs: crm.budgetMaxWaitMs,
      metrics: this.metrics,
      onFinalFailure: (operation, err, opts) => this.logFailure(operation, err, opts),
      onPauseCapped: (operation, asked, capped) =>
        this.logger.warn(
          `${operation}: the CRM asked to pause ${asked} ms (Retry-After); pausing ${capped} ms (CRM_MAX_PAUSE_MS)`,
        ),
    };
  }

  async budgetSnapshot(): Promise<BudgetSnapshot> {
    const state = await this.budget.state();
    const { limit, windowMs } = this.budget.params;
    return {
      usedInWindow: state.scores.length,
      bulkInWindow: state.bulkUsed,
      limit,
      windowMs,
      pausedUntil: state.pausedUntil > state.now ? state.pausedUntil : undefined,
      waiting: { interactive: state.waitingInteractive, bulk: state.waitingBulk },
    };
  }

  /** ETA in ms of a call of this priority queued now (an estimate: later interactive work may overtake bulk). */
  async estimateWaitMs(priority: Priority): Promise<number> {
    return estimateWaitMs(await this.budget.state(), this.budget.params, priority);
  }

  /** The counters as numbers: calls by operation and outcome, 429s, retries, budget waits. */
  counters(): Promise<GatewayCounters> {
    return this.metrics.snapshot();
  }

  /** Rejects the calls still waiting for a slot and takes them out of the shared queues. */
  async close(): Promise<void> {
    await this.gate.close();
  }

  // At application shutdown rather than module destroy: queue workers may still be finishing
  // jobs that call the CRM while modules are being destroyed.
  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }

  private run<K extends CrmOperation>(operation: K, args: Args<K>): Result<K> {
    const opts = args[args.length - 1] as CallOptions;
    if (opts?.priority !== 'interactive' && opts?.priority !== 'bulk') {
      // A forgotten CallOptions would otherwise silently eat the last real argument.
      return Promise.reject(
        new TypeError(`${operation}: the last argument must be CallOptions`),
      ) as Result<K>;
    }
    const callArgs = args.slice(0, -1);
    const method = this.client[operation] as (...a: unknown[]) => Promise<unknown>;
    return callWithBudget(this.deps, operation, opts, () => method.apply(this.client, callArgs)) as Result<K>;
  }

  private logFailure(operation: string, err: unknown, opts: CallOptions): void {
    const where = opts.correlationId ? ` [${opts.correlationId}]` : '';
    if (err instanceof CrmApiError) {
      const id = err.requestId ? ` requestId=${err.requestId}` : '';
      this.logger.warn(`${operation}${where} failed: HTTP ${err.status} ${err.code}${id}: ${err.message}`);
    } else {
      this.logger.warn(`${operation}${where} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  // Contacts
  readonly listContacts = (...a: Args<'listContacts'>) => this.run('listContacts', a);
  readonly getContact = (...a: Args<'getContact'>) => this.run('getContact', a);
  readonly createContact = (...a: Args<'createContact'>) => this.run('createContact', a);
  readonly updateContact = (...a: Args<'updateContact'>) => this.run('updateContact', a);
  readonly addTag = (...a: Args<'addTag'>) => this.run('addTag', a);
  readonly removeTag = (...a: Args<'removeTag'>) => this.run('removeTag', a);
  readonly setStage = (...a: Args<'setStage'>) => this.run('setStage', a);
  readonly blockContact = (...a: Args<'blockContact'>) => this.run('blockContact', a);
  readonly unblockContact = (...a: Args<'unblockContact'>) => this.run('unblockContact', a);
  // Conversations and messages
  readonly listConversations = (...a: Args<'listConversations'>) => this.run('listConversations', a);
  readonly openConversation = (...a: Args<'openConversation'>) => this.run('openConversation', a);
  readonly listMessages = (...a: Args<'listMessages'>) => this.run('listMessages', a);
  readonly sendMessage = (...a: Args<'sendMessage'>) => this.run('sendMessage', a);
  readonly reactToMessage = (...a: Args<'reactToMessage'>) => this.run('reactToMessage', a);
  // Tags, stages, segments, custom fields
  readonly listTags = (...a: Args<'listTags'>) => this.run('listTags', a);
  readonly listStages = (...a: Args<'listStages'>) => this.run('listStages', a);
  readonly createSegment = (...a: Args<'createSegment'>) => this.run('createSegment', a);
  readonly listCustomFields = (...a: Args<'listCustomFields'>) => this.run('listCustomFields', a);
  // Users, channels, broadcasts, templates, webhooks
  readonly listUsers = (...a: Args<'listUsers'>) => this.run('listUsers', a);
  readonly listChannels = (...a: Args<'listChannels'>) => this.run('listChannels', a);
  readonly listMessageTemplates = (...a: Args<'listMessageTemplates'>) => this.run('listMessageTemplates', a);
  readonly sendMessageTemplate = (...a: Args<'sendMessageTemplate'>) => this.run('sendMessageTemplate', a);
  readonly createWebhook = (...a: Args<'createWebhook'>) => this.run('createWebhook', a);
  readonly listWebhooks = (...a: Args<'listWebhooks'>) => this.run('listWebhooks', a);
  readonly deleteWebhook = (...a: Args<'deleteWebhook'>) => this.run('deleteWebhook', a);
}
