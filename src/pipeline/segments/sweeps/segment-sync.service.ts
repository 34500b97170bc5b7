import { Injectable, Logger } from '@nestjs/common';
import { CrmApiError } from '../../../language/crm-terms/crm-errors';
import { CrmWrites } from '../../../outbound/crm-gateway/crm-writes';
import { validateSegmentFilters, validateSegmentName } from '@crm-rules/crm-contract';
import type { RuleDefinition, ScheduleTrigger } from '../../../language/rules/format/rule-types';
import { toCrmFilters, type ResolvedFilters } from '../../../language/segment-filters/resolved-filters';
import { SegmentFilterError } from '../../../language/segment-filters/segment-filter-error';
import { SegmentRuleStateRepository } from '../segment-rule-state.repository';

/** The name a rule's segment has in the CRM: its own, else the rule id cut to 2.4's 30 characters. */
export function crmSegmentName(rule: RuleDefinition, trigger: ScheduleTrigger): string {
  return trigger.segment.name ?? [...rule.id].slice(0, 30).join('');
}

/**
 * `sync: true`: POST /v1/segments once per segment name, so the team sees the segment in the
 * dashboard. 409 means it exists already: done. The CRM cannot hold relative dates, so the
 * filters are sent as resolved at the first sweep (see docs/SEGMENTS.md).
 */
@Injectable()
export class SegmentSyncService {
  private readonly logger = new Logger(SegmentSyncService.name);

  constructor(
    private readonly ruleState: SegmentRuleStateRepository,
    private readonly gateway: CrmWrites,
  ) {}

  /** Whether a CRM call is still needed for this rule (used by plan). */
  async needsSync(rule: RuleDefinition, trigger: ScheduleTrigger): Promise<boolean> {
    if (!trigger.segment.sync) return false;
    return (await this.ruleState.syncedSegmentName(rule.id)) !== crmSegmentName(rule, trigger);
  }

  async ensureSynced(
    rule: RuleDefinition,
    trigger: ScheduleTrigger,
    filters: ResolvedFilters,
  ): Promise<void> {
    if (!(await this.needsSync(rule, trigger))) return;
    const name = crmSegmentName(rule, trigger);
    const crmFilters = toCrmFilters(filters);
    const problems = [...validateSegmentName(name), ...validateSegmentFilters(crmFilters)];
    if (problems.length)
      throw new SegmentFilterError(`sync: ${problems.map((p) => `${p.param}: ${p.message}`).join('; ')}`);
    let outcome = 'created';
    try {
      await this.gateway.createSegment(
        { name, filters: crmFilters },
        { priority: 'bulk', correlationId: `segment-sync-${rule.id}` },
      );
    } catch (err) {
      if (!(err instanceof CrmApiError && err.status === 409)) throw err;
      outcome = 'already existed';
    }
    await this.ruleState.recordSynced(rule.id, trigger.cron, trigger.timezone ?? null, name);
    this.logger.log(`rule ${rule.id}: segment "${name}" ${outcome} in the CRM`);
  }
}
