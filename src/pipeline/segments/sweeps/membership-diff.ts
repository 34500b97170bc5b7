// The membership diff of one sweep, batch by batch: memberships and runs of a batch commit in
// one transaction (so a crash neither loses an "entered" nor repeats it: the run's unique key
// and the membership row both say it happened), then the batch's runs go to the action queue.
import { cancelWaitsOfLeavers } from '../../execution/timing/wait-cancellation.service';
import type { DataSource, EntityManager } from 'typeorm';
import type { PendingRun } from '../../admission/create-run';
import { admitSegmentEntries } from '../../admission/admit-segment-entries';
import type { ActionResultsRepository } from '../../../persistence/ledger/action-results.repository';
import type { EngineMetrics } from '../../../operator/ops/engine-metrics';
import type { ActionsQueue } from '../../../runtime/queues/actions-queue.service';
import type { EngineClock } from '../../../runtime/config/engine-clock';
import type { RuleAction, RuleDefinition, ScheduleTrigger } from '../../../language/rules/format/rule-types';
import {
  SegmentMembershipsRepository,
  type LeftBatchRow,
  type MemberBatchRow,
} from './segment-memberships.repository';
import { fromMirrorRow } from '../../contact-mirror/mirror-records';
import type { MirroredContact } from '../../../language/crm-terms/mirrored-contact';
import type { ResolvedFilters } from '../../../language/segment-filters/resolved-filters';
import { matchesSegment } from '../../../language/segment-filters/segment-filter';
import { sweepLeaveTriggerKey, sweepTriggerKey } from './sweep-jobs';
import type { SweepProgress } from './sweep-progress';

const BATCH = 500;

/** Members in batches of `limit` by contact id; the next batch is read after the caller is done with one. */
export async function* memberBatches(
  memberships: SegmentMembershipsRepository,
  ruleId: string,
  filters: ResolvedFilters,
  onlyEntering: boolean,
  limit: number,
): AsyncGenerator<MemberBatchRow[]> {
  for (let after = ''; ;) {
    const rows = await memberships.membersBatch(ruleId, filters, after, limit, onlyEntering);
    if (rows.length === 0) return;
    after = rows[rows.length - 1].id;
    yield rows;
  }
}

/** Stored members that left or are gone (`gone`: no mirror row), in batches like memberBatches. */
export async function* leftBatches(
  memberships: SegmentMembershipsRepository,
  ruleId: string,
  filters: ResolvedFilters,
  limit: number,
): AsyncGenerator<LeftBatchRow[]> {
  for (let after = ''; ;) {
    const rows = await memberships.leftBatch(ruleId, filters, after, limit);
    if (rows.length === 0) return;
    after = rows[rows.length - 1].contact_id;
    yield rows;
  }
}

export interface DiffContext {
  sweepId: string;
  rule: RuleDefinition;
  trigger: ScheduleTrigger;
  ruleSetVersion: string;
  rulesCommit?: string;
  tick: Date;
  filters: ResolvedFilters;
  /** Operators' switches at the start of the sweep (console): paused records `paused`, nothing acts. */
  control: { paused: boolean; mode: 'live' | 'shadow' };
}

export class MembershipDiff {
  private readonly memberships: SegmentMembershipsRepository;

  constructor(
    private readonly dataSource: DataSource,
    private readonly metrics: EngineMetrics,
    private readonly actions: ActionsQueue,
    private readonly actionResults: ActionResultsRepository,
    private readonly progress: SweepProgress,
    // Stamps the waits leavers end (engine time); the segment itself is judged at the tick.
    private readonly clock: EngineClock,
  ) {
    this.memberships = new SegmentMembershipsRepository(dataSource);
  }

  /** Counts members, entering and leaving contacts in SQL; returns how long the evaluation took. */
  async evaluate(ctx: DiffContext): Promise<number> {
    const started = performance.now();
    const c = await this.memberships.counts(ctx.rule.id, ctx.filters);
    const evaluationMs = Math.round(performance.now() - started);
    const acting = ctx.trigger.when === 'every-run' ? c.members : c.entering;
    const onLeave = ctx.trigger.onLeave.length > 0 ? c.leaving : 0;
    await this.progress.update(
      {
        contactsEvaluated: c.evaluated,
        members: c.members,
        callsRemaining: acting * ctx.rule.actions.length + onLeave * ctx.trigger.onLeave.length,
      },
      true,
    );
    return evaluationMs;
  }

  async processLeft(ctx: DiffContext): Promise<void> {
    for await (const rows of leftBatches(this.memberships, ctx.rule.id, ctx.filters, BATCH)) {
      const left = rows.filter((r) => !r.gone).map(fromMirrorRow);
      const runs = await this.dataSource.transaction(async (tx) => {
        await this.memberships.in(tx).remove(
          ctx.rule.id,
          rows.map((r) => r.contact_id),
        );
        await cancelWaitsOfLeavers(
          tx,
          ctx.rule.id,
          rows.map((r) => r.contact_id),
          this.clock.now(),
        );
        if (ctx.trigger.onLeave.length === 0) return [];
        return this.createRuns(
          tx,
          ctx,
          left,
          sweepLeaveTriggerKey(ctx.rule.id, ctx.tick),
          ctx.trigger.onLeave,
        );
      });
      await this.enqueue(ctx, runs, ctx.trigger.onLeave.length, {
        left: this.progress.counters.left + left.length,
      });
    }
  }

  /** Entered contacts (every member with `when: every-run`) get a run of the rule's actions. */
  async processMembers(ctx: DiffContext): Promise<void> {
    const everyRun = ctx.trigger.when === 'every-run';
    for await (const rows of memberBatches(this.memberships, ctx.rule.id, ctx.filters, !everyRun, BATCH)) {
      let entered = 0;
      const runs = await this.dataSource.transaction(async (tx) => {
        const inserted = await this.memberships.in(tx).add(
          ctx.rule.id,
          rows.filter((r) => r.entering).map((r) => r.id),
          ctx.sweepId,
        );
        entered = inserted.length;
        const enteredIds = new Set(inserted);
        const acting = rows.filter((r) => everyRun || enteredIds.has(r.id)).map(fromMirrorRow);
        return this.createRuns(tx, ctx, acting, sweepTriggerKey(ctx.rule.id, ctx.tick), ctx.rule.actions);
      });
      await this.enqueue(ctx, runs, ctx.rule.actions.length, {
        entered: this.progress.counters.entered + entered,
      });
    }
  }

  /** Actions of this sweep's runs not finished yet: the CRM calls still ahead (at most). */
  async callsRemaining(ctx: DiffContext): Promise<number> {
    const counts = await this.actionResults.views.countsByStatus(ctx.rule.id, [
      sweepTriggerKey(ctx.rule.id, ctx.tick),
      sweepLeaveTriggerKey(ctx.rule.id, ctx.tick),
    ]);
    return (counts.pending ?? 0) + (counts.running ?? 0);
  }

  private async createRuns(
    tx: EntityManager,
    ctx: DiffContext,
    contacts: MirroredContact[],
    triggerKey: string,
    actions: RuleAction[],
  ): Promise<PendingRun[]> {
    const created = await admitSegmentEntries(
      tx,
      {
        rule: ctx.rule,
        ruleSetVersion: ctx.ruleSetVersion,
        ...(ctx.rulesCommit ? { rulesCommit: ctx.rulesCommit } : {}),
        triggerKey,
        triggerAt: ctx.tick,
        actions,
        control: ctx.control,
        correlationId: `sweep-${ctx.sweepId}`,
      },
      contacts.map((contact) => ({ contact, trace: matchesSegment(ctx.filters, contact, ctx.tick).trace })),
    );
    for (const run of created) this.metrics.runs.inc({ status: run.status, rule: ctx.rule.id });
    return created.filter((run) => run.status === 'pending');
  }

  /** After the commit: a crash between commit and add leaves pending runs the reconciler re-enqueues. */
  private async enqueue(
    ctx: DiffContext,
    runs: PendingRun[],
    actionsPerRun: number,
    change: { entered?: number; left?: number },
  ) {
    await this.actions.addMany(runs.map((run) => ({ ...run, correlationId: `sweep-${ctx.sweepId}` })));
    const c = this.progress.counters;
    const queued = runs.length * actionsPerRun;
    await this.progress.update({ ...change, actionsQueued: c.actionsQueued + queued });
  }
}
