import { Global, Module } from '@nestjs/common';
import { CrmModule } from '../../crm/crm.module';
import { DeployedVersions } from './deployed-versions.service';
import { GitRulesSync } from './git-rules-sync.service';
import { RuleSetVersionsRepository } from './rule-set-versions.repository';

/**
 * Deployed rule-set versions (issue 31). Global so that RuleSetService (RulesModule, imported by
 * many modules) finds DeployedVersions without each importer knowing; a test module without it
 * gets a RuleSetService that reads RULES_DIR only.
 */
@Global()
@Module({
  imports: [CrmModule],
  providers: [RuleSetVersionsRepository, GitRulesSync, DeployedVersions],
  exports: [RuleSetVersionsRepository, GitRulesSync, DeployedVersions],
})
export class DeployModule {}
