import { Module } from '@nestjs/common';
import { CrmModule } from '../../outbound/crm-gateway/crm.module';
import { RulesModule } from '../../runtime/rule-set/rules.module';
import { ChangeNamesService } from './change-names.service';
import { EventExplainer } from './event-explainer.service';

/** The explain of a stored event on demand, for the admin API (GET /admin/events/:id/explain). */
@Module({
  imports: [CrmModule, RulesModule],
  providers: [EventExplainer, ChangeNamesService],
  exports: [EventExplainer],
})
export class EventExplainModule {}
