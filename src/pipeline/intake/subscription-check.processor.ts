// The periodic webhook subscription check: a BullMQ job scheduler with a fixed id (every api
// process upserts the same one, each tick runs once) whose job re-reads the CRM's subscription
// list and recreates a subscription the CRM disabled after failed deliveries, or lost.
import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Queue } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '../../runtime/config/app-config';
import { SubscriptionService } from './subscription.service';

export const SUBSCRIPTION_CHECK_QUEUE = 'subscription-check';
const SCHEDULER_ID = 'subscription-check';

/** The one place that puts jobs on the subscription-check queue. */
@Injectable()
export class SubscriptionCheckSchedule {
  private readonly logger = new Logger(SubscriptionCheckSchedule.name);

  constructor(
    @InjectQueue(SUBSCRIPTION_CHECK_QUEUE) private readonly queue: Queue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Called once the engine manages its subscription (engine.ts). */
  async start(): Promise<void> {
    await this.queue
      .upsertJobScheduler(SCHEDULER_ID, { every: this.config.subscriptionCheckMs }, { name: 'check' })
      .catch((err: Error) => this.logger.warn(`subscription check not scheduled (Redis): ${err.message}`));
  }
}

@Processor(SUBSCRIPTION_CHECK_QUEUE)
export class SubscriptionCheckProcessor extends WorkerHost {
  constructor(private readonly subscriptions: SubscriptionService) {
    super();
  }

  async process(): Promise<unknown> {
    return this.subscriptions.check();
  }
}
