import { Injectable } from '@nestjs/common';
import { CrmBudgetView } from '../../../outbound/crm-gateway/crm-budget-view';
import { ActionResultsRepository } from '../../../persistence/ledger/action-results.repository';
import { ContactMirrorService } from '../../contact-mirror/contact-mirror.service';
import type { MirrorFreshness } from '../../contact-mirror/mirror-policy';
import { sweepLeaveTriggerKey, sweepTriggerKey } from './sweep-jobs';
import { SegmentSweepsRepository, type SegmentSweepRow } from './segment-sweeps.repository';
import { etaMs } from './sweep-progress';

export interface SweepView {
  id: string;
  ruleId: string;
  tickAt: string;
  reason: string;
  status: string;
  phase: string | null;
  detail: string | null;
  progress: {
    pagesDone: number;
    pagesTotal: number | null;
    contactsEvaluated: number;
    members: number | null;
    entered: number;
    left: number;
    actionsQueued: number;
    /** Live: actions of this sweep's runs by status (pending, running, succeeded, skipped, failed, dead). */
    actions: Record<string, number>;
    /** Live: CRM calls still ahead (unfinished list pages while running, then unfinished actions). */
    callsRemaining: number;
    etaMs: number;
  };
  evaluationMs: number | null;
  queuedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** GET /admin/sweeps: the stored progress of sweeps, with their actions' live state and ETA. */
@Injectable()
export class SweepStatusService {
  constructor(
    private readonly sweepRows: SegmentSweepsRepository,
    private readonly gateway: CrmBudgetView,
    private readonly mirror: ContactMirrorService,
    private readonly actionResults: ActionResultsRepository,
  ) {}

  async latest(): Promise<{ mirror: MirrorFreshness; sweeps: SweepView[] }> {
    const rows = await this.sweepRows.latestPerRule();
    return { mirror: await this.mirror.freshness(), sweeps: await this.views(rows) };
  }

  async history(ruleId: string, limit = 20): Promise<SweepView[]> {
    const rows = await this.sweepRows.history(ruleId, Math.min(Math.max(limit, 1), 200));
    return this.views(rows);
  }

  private async views(rows: SegmentSweepRow[]): Promise<SweepView[]> {
    if (rows.length === 0) return [];
    const [budget, waitMs] = await Promise.all([
      this.gateway.budgetSnapshot(),
      this.gateway.estimateWaitMs('bulk'),
    ]);
    return Promise.all(
      rows.map(async (r) => {
        const actions = await this.actionCounts(r.rule_id, new Date(r.tick_at));
        const unfinished = (actions.pending ?? 0) + (actions.running ?? 0);
        const pagesLeft =
          r.status === 'running' && r.pages_total !== null ? Math.max(0, r.pages_total - r.pages_done) : 0;
        const callsRemaining = pagesLeft + unfinished;
        return {
          id: r.id,
          ruleId: r.rule_id,
          tickAt: new Date(r.tick_at).toISOString(),
          reason: r.reason,
          status: r.status,
          phase: r.phase,
          detail: r.detail,
          progress: {
            pagesDone: r.pages_done,
            pagesTotal: r.pages_total,
            contactsEvaluated: r.contacts_evaluated,
            members: r.members,
            entered: r.entered,
            left: r.left,
            actionsQueued: r.actions_queued,
            actions,
            callsRemaining,
            etaMs: etaMs(callsRemaining, budget, waitMs),
          },
          evaluationMs: r.evaluation_ms,
          queuedAt: new Date(r.queued_at).toISOString(),
          startedAt: r.started_at ? new Date(r.started_at).toISOString() : null,
          finishedAt: r.finished_at ? new Date(r.finished_at).toISOString() : null,
        };
      }),
    );
  }

  private actionCounts(ruleId: string, tick: Date): Promise<Record<string, number>> {
    return this.actionResults.views.countsByStatus(ruleId, [
      sweepTriggerKey(ruleId, tick),
      sweepLeaveTriggerKey(ruleId, tick),
    ]);
  }
}
