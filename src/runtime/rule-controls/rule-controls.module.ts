import { Module } from '@nestjs/common';
import { RuleControlsRepository } from './rule-controls.repository';
import { RuleControlsService } from './rule-controls.service';
import { RuleControlAuditPruner } from './rule-control-audit-pruner';

/** Imported wherever rules are matched (every worker) and by the console (where they change). */
@Module({
  providers: [RuleControlsRepository, RuleControlsService, RuleControlAuditPruner],
  exports: [RuleControlsService, RuleControlsRepository],
})
export class RuleControlsModule {}
