import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ContactJournalModule } from '../../persistence/journal/contact-journal.module';
import { CrmGatewayModule } from '../../outbound/crm-gateway/crm-gateway.module';
import { QueuesModule } from '../../runtime/queues/queues.module';
import { RuleSetModule } from '../../runtime/rule-set/rule-set.module';
import { CustomIntakeService } from './custom-intake.service';
import { INTAKE_DB, intakeDbProvider } from './intake-db';
import { IntakeService } from './intake.service';
import { WebhookSecretsService } from './webhook-secrets.service';
import { WebhookSubscriptionEntity } from '../../persistence/schema/webhook-subscription.entity';
import { SubscriptionService } from './subscription.service';
import {
  SUBSCRIPTION_CHECK_QUEUE,
  SubscriptionCheckProcessor,
  SubscriptionCheckSchedule,
} from './subscription-check.processor';
import { BullModule } from '@nestjs/bullmq';
import { DELIVERY_HEALTH } from '../../operator/ops/delivery-health';

@Module({
  imports: [
    QueuesModule,
    RuleSetModule,
    CrmGatewayModule,
    ContactJournalModule,
    TypeOrmModule.forFeature([WebhookSubscriptionEntity]),
    BullModule.registerQueue({
      name: SUBSCRIPTION_CHECK_QUEUE,
      defaultJobOptions: { removeOnComplete: 10, removeOnFail: 10 },
    }),
  ],
  providers: [
    intakeDbProvider,
    IntakeService,
    CustomIntakeService,
    WebhookSecretsService,
    SubscriptionService,
    { provide: DELIVERY_HEALTH, useExisting: SubscriptionService },
    SubscriptionCheckSchedule,
    SubscriptionCheckProcessor,
  ],
  exports: [
    DELIVERY_HEALTH,
    WebhookSecretsService,
    SubscriptionService,
    SubscriptionCheckSchedule,
    IntakeService,
    CustomIntakeService,
  ],
})
export class IntakeModule implements OnApplicationShutdown {
  private closing?: Promise<void>;

  constructor(@Inject(INTAKE_DB) private readonly db: DataSource) {}

  // Shutdown can be asked twice at once (a signal while app.close() runs): `isInitialized` stays
  // true until destroy() ends, so a second call would end the pool again ("Called end on pool more
  // than once"). One shared promise closes it once.
  onApplicationShutdown(): Promise<void> {
    this.closing ??= this.db.isInitialized ? this.db.destroy() : Promise.resolve();
    return this.closing;
  }
}
