import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { resolveAction } from '../../../language/catalogue/resolve-action';
import { CrmDirectory } from '../../../outbound/crm-gateway/crm-directory.service';
import { CrmBudgetView } from '../../../outbound/crm-gateway/crm-budget-view';
import type { RuleAction, ScheduleTrigger } from '../../../language/rules/format/rule-types';
import { RuleSetService } from '../../../runtime/rule-set/rule-set.service';
import { ContactMirrorService } from '../../contact-mirror/contact-mirror.service';
import { leftBatches, memberBatches } from '../sweeps/membership-diff';
import { SegmentMembershipsRepository } from '../sweeps/segment-memberships.repository';
import { refreshCallsEstimate } from '../../contact-mirror/mirror-policy';
import { fromMirrorRow } from '../../contact-mirror/mirror-records';
import type { MirroredContact } from '../../../language/crm-terms/mirrored-contact';
import { planSweep, type PlannedAction, type SweepPlan } from './plan-sweep';
import {
  resolveFilterNames,
  resolveRelativeDates,
  type ResolvedFilters,
} from '../../../language/segment-filters/resolved-filters';
import { SegmentSyncService } from '../sweeps/segment-sync.service';

const BATCH = 2000;

export class PlanError extends Error {
  constructor(
    message: string,
    readonly kind: 'not_found' | 'not_a_segment_rule',
  ) {
    super(message);
  }
}

/** Gathers what planSweep needs with reads only: the mirror, the memberships, the directory, the budget. */
@Injectable()
export class SegmentPlanService {
  private readonly memberships: SegmentMembershipsRepository;

  constructor(
    dataSource: DataSource,
    private readonly rules: RuleSetService,
    private readonly mirror: ContactMirrorService,
    private readonly directory: CrmDirectory,
    private readonly gateway: CrmBudgetView,
    private readonly segmentSync: SegmentSyncService,
  ) {
    this.memberships = new SegmentMembershipsRepository(dataSource);
  }

  async plan(ruleId: string, sampleSize = 50, now = new Date()): Promise<SweepPlan> {
    const rule = this.rules.current()?.rule(ruleId);
    if (!rule) throw new PlanError(`no rule "${ruleId}" in the loaded rule set`, 'not_found');
    if (rule.trigger.kind !== 'schedule')
      throw new PlanError(`rule "${ruleId}" is not a segment rule (on: schedule)`, 'not_a_segment_rule');
    const trigger: ScheduleTrigger = rule.trigger;
    const filters = resolveRelativeDates(
      await resolveFilterNames(trigger.segment.filters, this.directory),
      now,
    );
    const [counts, members, leaving, mirror, budget, waitMs, segmentSyncCall, actions, onLeave] =
      await Promise.all([
        this.memberships.counts(rule.id, filters),
        this.members(rule.id, filters, trigger.when !== 'every-run'),
        this.leaving(rule.id, filters),
        this.mirror.freshness(),
        this.gateway.budgetSnapshot(),
        this.gateway.estimateWaitMs('bulk'),
        this.segmentSync.needsSync(rule, trigger),
        this.resolveAll(rule.actions),
        this.resolveAll(trigger.onLeave),
      ]);
    return planSweep({
      rule,
      trigger,
      now,
      filters,
      counts,
      entering: members.entering,
      leaving,
      acting: members.acting,
      actions,
      onLeave,
      mirror,
      mirrorRefreshCalls: refreshCallsEstimate(mirror, now),
      segmentSyncCall,
      budget: { limit: budget.limit, windowMs: budget.windowMs, usedInWindow: budget.usedInWindow },
      waitMs,
      sampleSize,
    });
  }

  private async members(ruleId: string, filters: ResolvedFilters, onlyEntering: boolean) {
    const acting: MirroredContact[] = [];
    const entering: MirroredContact[] = [];
    for await (const rows of memberBatches(this.memberships, ruleId, filters, onlyEntering, BATCH)) {
      for (const r of rows) {
        const contact = fromMirrorRow(r);
        acting.push(contact);
        if (r.entering) entering.push(contact);
      }
    }
    return { acting, entering };
  }

  private async leaving(ruleId: string, filters: ResolvedFilters): Promise<MirroredContact[]> {
    const out: MirroredContact[] = [];
    for await (const rows of leftBatches(this.memberships, ruleId, filters, BATCH))
      out.push(...rows.filter((r) => !r.gone).map(fromMirrorRow));
    return out;
  }

  /** Names to ids through the directory (cached reads), without side effects (no round-robin draw). */
  private resolveAll(actions: RuleAction[]): Promise<PlannedAction[]> {
    return Promise.all(
      actions.map(async (action): Promise<PlannedAction> => {
        try {
          return { action, resolved: await resolveAction(this.directory, action, {}, { dryRun: true }) };
        } catch (err) {
          return { action, problem: err instanceof Error ? err.message : String(err) };
        }
      }),
    );
  }
}
