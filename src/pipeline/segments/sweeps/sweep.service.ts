import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ENGINE_CLOCK, type EngineClock } from '../../../runtime/config/engine-clock';
import { CrmDirectory } from '../../../outbound/crm-gateway/crm-directory.service';
import { UnknownNameError } from '../../../language/crm-terms/directory-match';
import { CrmBudgetView } from '../../../outbound/crm-gateway/crm-budget-view';
import { EngineMetrics } from '../../../operator/ops/engine-metrics';
import { ActionResultsRepository } from '../../../persistence/ledger/action-results.repository';
import { ActionsQueue } from '../../../runtime/queues/actions-queue.service';
import type { RuleDefinition, ScheduleTrigger } from '../../../language/rules/format/rule-types';
import { RuleSetService } from '../../../runtime/rule-set/rule-set.service';
import { sweepLockKey, withAdvisoryLock } from '../../../persistence/sql/advisory-locks.repository';
import { ContactMirrorService } from '../../contact-mirror/contact-mirror.service';
import { RuleControlsService } from '../../../runtime/rule-controls/rule-controls.service';
import { MembershipDiff, type DiffContext } from './membership-diff';
import { resolveFilterNames, resolveRelativeDates } from '../../../language/segment-filters/resolved-filters';
import { SegmentFilterError } from '../../../language/segment-filters/segment-filter-error';
import { SegmentSweepsRepository } from './segment-sweeps.repository';
import { SegmentSyncService } from './segment-sync.service';
import { etaMs, SweepProgress } from './sweep-progress';
import { SweepJobData } from './sweep-jobs';
import type { SweepStatus } from '../segment-sweep.entity';

export interface SweepSummary {
  sweepId: string;
  ruleId: string;
  status: SweepStatus;
  detail?: string;
}

/**
 * One sweep of one scheduled rule: refresh the mirror, evaluate the segment in SQL, diff the
 * memberships, write runs for the changes only, hand them to the action queue. A Postgres
 * advisory lock per rule keeps two sweeps of one rule from running at once; the segment_sweeps
 * row (unique on rule and tick) makes the same tick run to completion once.
 */
@Injectable()
export class SweepService {
  private readonly logger = new Logger(SweepService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly rules: RuleSetService,
    private readonly mirror: ContactMirrorService,
    private readonly directory: CrmDirectory,
    private readonly gateway: CrmBudgetView,
    private readonly segmentSync: SegmentSyncService,
    private readonly metrics: EngineMetrics,
    private readonly actions: ActionsQueue,
    private readonly actionResults: ActionResultsRepository,
    private readonly sweepRows: SegmentSweepsRepository,
    private readonly controls: RuleControlsService,
    @Inject(ENGINE_CLOCK) private readonly clock: EngineClock,
  ) {}

  async run(job: SweepJobData): Promise<SweepSummary> {
    const tick = new Date(job.tickIso);
    const row = await this.sweepRows.claim(job.ruleId, tick, job.reason);
    const sweepId: string = row.id;
    if (row.status === 'succeeded' || row.status === 'skipped')
      return { sweepId, ruleId: job.ruleId, status: row.status };
    const set = this.rules.current();
    const rule = set?.rule(job.ruleId);
    if (!set || !rule || !rule.enabled || rule.trigger.kind !== 'schedule') {
      return this.skip(
        sweepId,
        job.ruleId,
        'rule_not_scheduled',
        'the rule is gone, disabled or no longer a segment rule',
      );
    }
    const outcome = await withAdvisoryLock(this.dataSource, sweepLockKey(rule.id), false, () =>
      this.sweep(sweepId, rule, rule.trigger as ScheduleTrigger, set.version, tick, set.commit),
    );
    if (outcome.acquired) return outcome.value;
    return this.skip(
      sweepId,
      job.ruleId,
      'previous_sweep_running',
      'a sweep of this rule was still running when this tick came',
    );
  }

  private async sweep(
    sweepId: string,
    rule: RuleDefinition,
    trigger: ScheduleTrigger,
    ruleSetVersion: string,
    tick: Date,
    /** The deployed version the set came from (runs record it). */
    rulesCommit?: string,
  ): Promise<SweepSummary> {
    const progress = new SweepProgress(sweepId, rule.id, {
      sweeps: this.sweepRows,
      metrics: this.metrics,
      logger: this.logger,
      eta: { eta: (calls) => this.eta(calls) },
    });
    await progress.start();
    let evaluationMs: number | null = null;
    try {
      await progress.enterPhase('mirror');
      await this.mirror.refresh((p) => progress.mirrorPage(p));
      const filters = resolveRelativeDates(
        await resolveFilterNames(trigger.segment.filters, this.directory),
        tick,
      );
      await this.segmentSync.ensureSynced(rule, trigger, filters);
      await progress.enterPhase('evaluate');
      const control = { paused: this.controls.isPaused(rule.id), mode: this.controls.modeOf(rule) };
      const ctx: DiffContext = {
        sweepId,
        rule,
        trigger,
        ruleSetVersion,
        rulesCommit,
        tick,
        filters,
        control,
      };
      const diff = new MembershipDiff(
        this.dataSource,
        this.metrics,
        this.actions,
        this.actionResults,
        progress,
        this.clock,
      );
      evaluationMs = await diff.evaluate(ctx);
      await progress.enterPhase('left');
      await diff.processLeft(ctx);
      await progress.enterPhase('members');
      await diff.processMembers(ctx);
      await progress.update({ callsRemaining: await diff.callsRemaining(ctx) }, true);
      await progress.finish('succeeded', null, evaluationMs);
      return { sweepId, ruleId: rule.id, status: 'succeeded' };
    } catch (err) {
      const detail = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      await progress.finish('failed', detail, evaluationMs).catch(() => undefined);
      // A filter the engine cannot evaluate, or a name the CRM does not know, fails the same way on retry.
      if (err instanceof SegmentFilterError || err instanceof UnknownNameError) {
        return { sweepId, ruleId: rule.id, status: 'failed', detail };
      }
      throw err;
    }
  }

  private async eta(callsRemaining: number): Promise<number> {
    const [budget, waitMs] = await Promise.all([
      this.gateway.budgetSnapshot(),
      this.gateway.estimateWaitMs('bulk'),
    ]);
    return etaMs(callsRemaining, budget, waitMs);
  }

  /** Only a sweep nobody started is skipped: a retried job of a running sweep leaves it alone. */
  private async skip(sweepId: string, ruleId: string, reason: string, detail: string): Promise<SweepSummary> {
    const skipped = await this.sweepRows.skipQueued(sweepId, `${reason}: ${detail}`);
    if (skipped) this.logger.log(`sweep ${ruleId} skipped: ${detail}`);
    return { sweepId, ruleId, status: skipped ? 'skipped' : 'running', detail: reason };
  }
}
