// Progress of one running sweep: kept in its segment_sweeps row (GET /admin/sweeps), the
// crmr_sweep_progress gauge and the log. Writes are throttled; phase changes and the end are not.
import type { Logger } from '@nestjs/common';
import type { EngineMetrics } from '../../../operator/ops/engine-metrics';
import type { MirrorProgress } from '../../contact-mirror/mirror-policy';
import type { SweepPhase, SweepStatus } from '../segment-sweep.entity';
import type { SegmentSweepsRepository, SweepProgressRow } from './segment-sweeps.repository';

const WRITE_EVERY_MS = 1000;
const LOG_EVERY_MS = 5000;

/** The progress columns a sweep counts (its phase is kept apart). */
export type SweepCounters = Omit<SweepProgressRow, 'phase'>;

/** ETA of the CRM calls still ahead, at the current budget: the wait for a slot, then one slot per call. */
export function etaMs(
  callsRemaining: number,
  budget: { limit: number; windowMs: number },
  waitMs: number,
): number {
  if (callsRemaining <= 0) return 0;
  return Math.round(waitMs + (callsRemaining * budget.windowMs) / Math.max(1, budget.limit));
}

export interface EtaSource {
  eta(callsRemaining: number): Promise<number>;
}

export class SweepProgress {
  readonly counters: SweepCounters = {
    pagesDone: 0,
    pagesTotal: null,
    contactsEvaluated: 0,
    members: null,
    entered: 0,
    left: 0,
    actionsQueued: 0,
    callsRemaining: null,
    etaMs: null,
  };
  private phase: SweepPhase | null = null;
  private lastWrite = 0;
  private lastLog = 0;

  constructor(
    private readonly sweepId: string,
    private readonly ruleId: string,
    private readonly deps: {
      sweeps: SegmentSweepsRepository;
      metrics: EngineMetrics;
      logger: Logger;
      eta: EtaSource;
    },
  ) {}

  async start(): Promise<void> {
    await this.deps.sweeps.markRunning(this.sweepId);
  }

  async enterPhase(phase: SweepPhase): Promise<void> {
    this.phase = phase;
    await this.flush(true);
  }

  async mirrorPage(p: MirrorProgress): Promise<void> {
    this.counters.pagesDone = p.pagesDone;
    this.counters.pagesTotal = p.pagesTotal;
    this.counters.callsRemaining = p.pagesTotal === null ? null : Math.max(0, p.pagesTotal - p.pagesDone);
    await this.flush(false);
  }

  async update(change: Partial<SweepCounters>, force = false): Promise<void> {
    Object.assign(this.counters, change);
    await this.flush(force);
  }

  async finish(status: SweepStatus, detail: string | null, evaluationMs: number | null): Promise<void> {
    this.phase = 'done';
    await this.flush(true);
    await this.deps.sweeps.finish(this.sweepId, status, detail, evaluationMs);
    this.log(true, `${status}${detail ? `: ${detail}` : ''}`);
  }

  private async flush(force: boolean): Promise<void> {
    const now = Date.now();
    this.setGauge();
    if (!force && now - this.lastWrite < WRITE_EVERY_MS) return;
    this.lastWrite = now;
    const c = this.counters;
    if (c.callsRemaining !== null) c.etaMs = await this.deps.eta.eta(c.callsRemaining).catch(() => null);
    await this.deps.sweeps.writeProgress(this.sweepId, { ...c, phase: this.phase });
    this.log(force);
  }

  private setGauge(): void {
    const c = this.counters;
    const gauge = this.deps.metrics.sweepProgress;
    const set = (measure: string, value: number | null) =>
      gauge.set({ rule: this.ruleId, measure }, value ?? 0);
    set('pages_done', c.pagesDone);
    set('pages_total', c.pagesTotal);
    set('contacts_evaluated', c.contactsEvaluated);
    set('members', c.members);
    set('entered', c.entered);
    set('left', c.left);
    set('actions_queued', c.actionsQueued);
    set('eta_seconds', c.etaMs === null ? null : Math.ceil(c.etaMs / 1000));
  }

  private log(force: boolean, suffix?: string): void {
    const now = Date.now();
    if (!force && now - this.lastLog < LOG_EVERY_MS) return;
    this.lastLog = now;
    const c = this.counters;
    const pages = c.pagesTotal === null ? `${c.pagesDone}` : `${c.pagesDone}/${c.pagesTotal}`;
    const eta = c.etaMs === null ? '?' : `${Math.ceil(c.etaMs / 1000)}s`;
    this.deps.logger.log(
      `sweep ${this.ruleId} [${this.phase ?? 'queued'}] pages ${pages}, evaluated ${c.contactsEvaluated}, members ${c.members ?? '?'}, ` +
        `entered ${c.entered}, left ${c.left}, actions queued ${c.actionsQueued}, ETA ${eta}${suffix ? ` — ${suffix}` : ''}`,
    );
  }
}
