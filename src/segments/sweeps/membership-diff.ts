// The membership diff of one sweep, batch by batch: memberships and runs of a batch commit in
// one transaction (so a crash neither loses an "entered" nor repeats it: the run's unique key
// and the membership row both say it happened), then the batch's runs go to the action queue.
import { cancelWaitsOfLeavers } from '../../pipeline/execution/timing/wait-cancellation.service';
import type { DataSource, EntityManager } from 'typeorm';
import { createRun, type PendingRun } from '../../pipeline/admission/create-run';
import type { ActionResultsRepository } from '../../persistence/ledger/action-results.repository';
import type { EngineMetrics } from '../../ops/engine-metrics';
import type { ActionsQueue } from '../../queues/actions-queue.service';
import type { EngineClock } from '../../config/engine-clock';
import type { RuleAction, RuleDefinition, ScheduleTrigger } from '../../language/rules/rule-types';
import {
  addMembersQuery,
  leavingCountsQuery,
  leftBatchQuery,
  membersBatchQuery,
  removeMembersQuery,
  segmentCountsQuery,
} from './membership-sql';
import { fromMirrorRow, type MirrorRow } from '../../contacts/mirror-sql';
import { toContact, type MirroredContact } from '../../crm-contract/mirrored-contact';
import type { ResolvedFilters } from '../../language/segment-filters/resolved-filters';
import { matchesSegment } from '../../language/segment-filters/segment-filter';
import { sweepLeaveTriggerKey, sweepTriggerKey } from './sweep-jobs';
import type { SweepProgress } from './sweep-progress';

const BATCH = 500;

export interface SegmentCounts {
  evaluated: number;
  members: number;
  entering: number;
  leaving: number;
  gone: number;
}

/** Mirror size, members, entering, leaving and gone contacts of a segment, counted in SQL. */
export async function segmentCounts(
  dataSource: DataSource,
  ruleId: string,
  filters: ResolvedFilters,
): Promise<SegmentCounts> {
  const c = segmentCountsQuery(ruleId, filters);
  const l = leavingCountsQuery(ruleId, filters);
  const [[counts], [left]] = await Promise.all([
    dataSource.query(c.sql, c.params),
    dataSource.query(l.sql, l.params),
  ]);
  const { evaluated, members, entering } = counts;
  return { evaluated, members, entering, leaving: left.leaving, gone: left.gone };
}

/** Members in batches of `limit` by contact id; the next batch is read after the caller is done with one. */
export async function* memberBatches(
  dataSource: DataSource,
  ruleId: string,
  filters: ResolvedFilters,
  onlyEntering: boolean,
  limit: number,
): AsyncGenerator<(MirrorRow & { entering: boolean })[]> {
  for (let after = ''; ;) {
    const q = membersBatchQuery(ruleId, filters, after, limit, onlyEntering);
    const rows: (MirrorRow & { entering: boolean })[] = await dataSource.query(q.sql, q.params);
    if (rows.length === 0) return;
    after = rows[rows.length - 1].id;
    yield rows;
  }
}

/** Stored members that left or are gone (`gone`: no mirror row), in batches like memberBatches. */
export async function* leftBatches(
  dataSource: DataSource,
  ruleId: string,
  filters: ResolvedFilters,
  limit: number,
): AsyncGenerator<(MirrorRow & { contact_id: string; gone: boolean })[]> {
  for (let after = ''; ;) {
    const q = leftBatchQuery(ruleId, filters, after, limit);
    const rows: (MirrorRow & { contact_id: string; gone: boolean })[] = await dataSource.query(
      q.sql,
      q.params,
    );
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
  tick: Date;
  filters: ResolvedFilters;
  /** Operators' switches at the start of the sweep (console): paused records `paused`, nothing acts. */
  control: { paused: boolean; mode: 'live' | 'shadow' };
}

export class MembershipDiff {
  constructor(
    private readonly dataSource: DataSource,
    private readonly metrics: EngineMetrics,
    private readonly actions: ActionsQueue,
    private readonly actionResults: ActionResultsRepository,
    private readonly progress: SweepProgress,
    // Stamps the waits leavers end (engine time); the segment itself is judged at the tick.
    private readonly clock: EngineClock,
  ) {}

  /** Counts members, entering and leaving contacts in SQL; returns how long the evaluation took. */
  async evaluate(ctx: DiffContext): Promise<number> {
    const started = performance.now();
    const c = await segmentCounts(this.dataSource, ctx.rule.id, ctx.filters);
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
    for await (const rows of leftBatches(this.dataSource, ctx.rule.id, ctx.filters, BATCH)) {
      const left = rows.filter((r) => !r.gone).map(fromMirrorRow);
      const runs = await this.dataSource.transaction(async (tx) => {
        const remove = removeMembersQuery(
          ctx.rule.id,
          rows.map((r) => r.contact_id),
        );
        await tx.query(remove.sql, remove.params);
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
    for await (const rows of memberBatches(this.dataSource, ctx.rule.id, ctx.filters, !everyRun, BATCH)) {
      let entered = 0;
      const runs = await this.dataSource.transaction(async (tx) => {
        const add = addMembersQuery(
          ctx.rule.id,
          rows.filter((r) => r.entering).map((r) => r.id),
          ctx.sweepId,
        );
        const inserted: { contact_id: string }[] = await tx.query(add.sql, add.params);
        entered = inserted.length;
        const enteredIds = new Set(inserted.map((r) => r.contact_id));
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
    const counts = await this.actionResults.countsByStatus(ctx.rule.id, [
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
    const pending: PendingRun[] = [];
    for (const contact of contacts) {
      const { trace } = matchesSegment(ctx.filters, contact, ctx.tick);
      const run = await createRun(tx, {
        triggerKey,
        inboxEventId: null,
        eventType: 'sweep',
        priority: 'bulk',
        rule: ctx.rule,
        ruleSetVersion: ctx.ruleSetVersion,
        contactId: contact.id,
        evaluation: {
          ruleId: ctx.rule.id,
          ruleVersion: ctx.rule.version,
          matched: true,
          trace,
          actions,
          mode: ctx.control.mode,
        },
        paused: ctx.control.paused,
        contactSnapshot: toContact(contact) as unknown as Record<string, unknown>,
        correlationId: `sweep-${ctx.sweepId}`,
      });
      this.metrics.runs.inc({ status: run.status, rule: ctx.rule.id });
      if (run.status === 'pending') pending.push(run);
    }
    return pending;
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
