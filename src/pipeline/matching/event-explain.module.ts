import { Module } from '@nestjs/common';
import { CrmGatewayModule } from '../../outbound/crm-gateway/crm-gateway.module';
import { RuleSetModule } from '../../runtime/rule-set/rule-set.module';
import { EventFactsService } from './event-facts.service';
import { ChangeNamesService } from './change-names.service';
import { EventExplainer } from './event-explainer.service';

/** The explain of a stored event on demand, for the admin API (GET /admin/events/:id/explain). */
@Module({
  imports: [CrmGatewayModule, RuleSetModule],
  providers: [EventExplainer, EventFactsService, ChangeNamesService],
  exports: [EventExplainer],
})
export class EventExplainModule {}
