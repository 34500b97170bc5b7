import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ContactJournalModule } from '../console/journal/contact-journal.module';
import { CrmModule } from '../crm/crm.module';
import { QueuesModule } from '../queues/queues.module';
import { IntakeService } from './intake.service';
import { WebhookSecretsService } from './webhook-secrets.service';
import { WebhookSubscriptionEntity } from './webhook-subscription.entity';
import { SubscriptionService } from './subscription.service';

@Module({
  imports: [
    QueuesModule,
    CrmModule,
    ContactJournalModule,
    TypeOrmModule.forFeature([WebhookSubscriptionEntity]),
  ],
  providers: [IntakeService, WebhookSecretsService, SubscriptionService],
  exports: [WebhookSecretsService, SubscriptionService, IntakeService],
})
export class IntakeModule {}
