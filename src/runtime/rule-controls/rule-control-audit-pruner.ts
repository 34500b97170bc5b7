// The console's pause/resume/shadow audit past RETENTION_AUDIT_DAYS. Found by RetentionService
// through @PrunesTable (rule controls own the table, retention only asks).
import { Injectable } from '@nestjs/common';
import { PrunesTable, type TablePruner } from '../../persistence/retention/table-pruner';
import { RuleControlsRepository } from './rule-controls.repository';

@Injectable()
@PrunesTable('rule_control_audit')
export class RuleControlAuditPruner implements TablePruner {
  constructor(private readonly ruleControls: RuleControlsRepository) {}

  prune(cutoff: Date, limit: number): Promise<number> {
    return this.ruleControls.deleteAuditBefore(cutoff, limit);
  }
}
