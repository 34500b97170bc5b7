// Waits, windows and limits as the action runner meets them. Before each pending action a run may
// have to sleep (a `- wait:` step, a closed window, a full limit period): the run is recorded
// `waiting` until T on the ledger and a BullMQ delayed job wakes it, so nothing is held in memory
// and a restart loses nothing. When it wakes, a wait's `unless` is evaluated on the contact as the
// CRM has it then. The decisions themselves are the pure ones of src/language/rules/gates/run-gates.ts, shared
// with the offline rule tests.
import { Inject, Injectable, Logger } from '@nestjs/common';
import { warnMessageSkip } from '../message-skip-log';
import { CrmReads } from '../../../outbound/crm-gateway/crm-reads';
import type { ActionRow } from '../../../persistence/ledger/action-results.repository';
import type { RunRow } from '../../../persistence/ledger/run-rows';
import {
  timelineProgress,
  type TimelineEntry,
  type TimelineProgress,
} from '../../../persistence/ledger/run-timeline-entry';
import { ActionsQueue } from '../../../runtime/queues/actions-queue.service';
import { gateBefore, unlessHolds } from '../../../language/rules/gates/run-gates';
import { ENGINE_CLOCK, type EngineClock } from '../../../runtime/config/engine-clock';
import { armNotTaken, nextControl } from '../../../language/rules/gates/branch-plan';
import { branchEntry, failureArmStep } from './branch-gate';
import { freshContact } from './fresh-contact';
import type { GateOutcome, TimingLedger } from './timing-ledger';

export type { GateOutcome, TimingLedger } from './timing-ledger';
import { factsOf } from './run-facts';
import { RuleLimitService } from './rule-limit.service';
import type { HostLimitedError } from '../../../language/net/egress-errors';

@Injectable()
export class RunTimingService {
  private readonly logger = new Logger(RunTimingService.name);

  constructor(
    private readonly queue: ActionsQueue,
    private readonly limits: RuleLimitService,
    private readonly gateway: CrmReads,
    @Inject(ENGINE_CLOCK) private readonly clock: EngineClock,
  ) {}

  /**
   * A job for a waiting run: when its time has come, resume it (pending again, the runner goes on)
   * or cancel it if the wait's `unless` now holds or the contact is gone. Anything else: no-op.
   */
  async wake(ledger: TimingLedger, runId: string): Promise<void> {
    const now = this.clock.now();
    const run = await ledger.runs.dueWaiting(runId, now);
    if (!run) return;
    const waiting = timelineProgress(run.timeline ?? []).waiting;
    const base = {
      at: now.toISOString(),
      ...(waiting?.action !== undefined ? { action: waiting.action } : {}),
    };
    const wait = waiting?.for === 'wait' ? run.timing?.waits?.[waiting.wait ?? -1] : undefined;
    if (wait?.unless) {
      const contact = await freshContact(this.gateway, run);
      if (!contact) {
        await this.cancel(ledger, run, { ...base, step: 'cancelled', reason: 'contact_deleted' }, true);
        return;
      }
      if (unlessHolds(wait, run.timing?.timezone, factsOf(run, contact, now))) {
        const detail = 'unless held when the wait ended';
        await this.cancel(ledger, run, { ...base, step: 'cancelled', reason: 'unless', detail }, true);
        return;
      }
    }
    await ledger.runs.resume(run.id, {
      ...base,
      step: 'resumed',
      ...(waiting?.for ? { for: waiting.for } : {}),
      ...(waiting?.wait !== undefined ? { wait: waiting.wait } : {}),
    });
  }

  /** Before the pending action `action` of a run: sleep, skip, cancel or go. */
  async gate(
    ledger: TimingLedger,
    run: RunRow,
    row: { id: string; action_index: number; action?: unknown },
    contact?: Record<string, unknown>,
  ): Promise<GateOutcome> {
    const plan = run.timing;
    if (!plan) return 'go';
    const now = this.clock.now();
    const at = now.toISOString();
    const action = row.action_index;
    const progress = timelineProgress(run.timeline ?? []);
    if (plan.branches && armNotTaken(plan, progress.decided, action))
      return this.skipNotTaken(ledger, run, row, progress);
    if (plan.limit && !progress.limitTaken) {
      const ledgerCount = (from: Date, to: Date) =>
        ledger.runs.views.countLimitSlots(run.rule_id, from, to, this.clock.toWallClock(from));
      const slot = await this.limits.take(run.rule_id, plan.limit, ledgerCount, now);
      if (!slot.taken) {
        const detail = `${plan.limit.max} run(s) per period already started`;
        if (plan.limit.over === 'skip')
          return this.cancel(ledger, run, { at, step: 'cancelled', reason: 'rate_limited', detail }, false);
        return this.sleep(run, ledger, now, slot.nextPeriod, {
          at,
          step: 'waiting',
          for: 'limit',
          action,
          detail,
        });
      }
      await this.record(ledger, run, { at, step: 'limit', action });
    }
    if (plan.branches) {
      const flow = await this.branchesBefore(ledger, run, row, progress, contact ?? {}, now);
      if (flow !== 'go') return flow;
    }
    const waits = plan.waits ?? [];
    const gate = gateBefore(plan, action, (w) => progress.waitsPassed.has(waits.indexOf(w)), now);
    switch (gate.kind) {
      case 'go':
        return 'go';
      case 'wait':
        return this.sleep(run, ledger, now, gate.until, {
          at,
          step: 'waiting',
          for: 'wait',
          wait: waits.indexOf(gate.wait),
          action,
        });
      case 'closed':
        return this.sleep(run, ledger, now, gate.until, {
          at,
          step: 'waiting',
          for: 'window',
          action,
          detail: `${gate.scope === 'rule' ? 'the rule' : 'the action'} is outside its window`,
        });
      case 'skip-run':
        return this.cancel(
          ledger,
          run,
          { at, step: 'cancelled', action, reason: 'outside_window', detail: gate.why },
          false,
        );
      case 'skip-action':
        await ledger.actions.skip(row.id, 'outside_window', gate.why);
        warnMessageSkip(this.logger, run, row, 'outside_window');
        await this.record(ledger, run, {
          at,
          step: 'skipped',
          action,
          reason: 'outside_window',
          detail: gate.why,
        });
        return 'skip';
    }
  }

  /**
   * The waits and branches written before this action, in written order: a wait sleeps, a branch
   * is decided (on a fresh CRM read once the run has slept) and recorded; an action the branch did
   * not take is skipped.
   */
  private async branchesBefore(
    ledger: TimingLedger,
    run: RunRow,
    row: { id: string; action_index: number },
    progress: TimelineProgress,
    contact: Record<string, unknown>,
    now: Date,
  ): Promise<GateOutcome> {
    const plan = run.timing!;
    const action = row.action_index;
    let fresh: Record<string, unknown> | undefined;
    for (;;) {
      const next = nextControl(plan, action, progress.waitsPassed, progress.decided);
      if (!next) return 'go';
      const at = now.toISOString();
      if (next.kind === 'wait') {
        const until = new Date(now.getTime() + plan.waits![next.wait].ms);
        return this.sleep(run, ledger, now, until, {
          at,
          step: 'waiting',
          for: 'wait',
          wait: next.wait,
          action,
        });
      }
      if (progress.resumed && !fresh) {
        fresh = await freshContact(this.gateway, run);
        if (!fresh)
          return this.cancel(
            ledger,
            run,
            { at, step: 'cancelled', action, reason: 'contact_deleted' },
            false,
          );
      }
      const entry = branchEntry(run, next.branch, progress, fresh ?? contact, now);
      await this.record(ledger, run, entry);
      progress.decided.set(next.branch, entry.arm!);
      this.logger.log(`rule ${run.rule_id}: run ${run.id} took ${entry.label}`);
      if (armNotTaken(plan, progress.decided, action)) return this.skipNotTaken(ledger, run, row, progress);
    }
  }

  /**
   * Action `action` ended failed or dead (never called for uncertain: a message that may have gone
   * out takes no fallback). With an `on-failure:` its arm is recorded taken, once, and true says the
   * run goes on into it; false: no such arm, the run ends as before.
   */
  async takeFailureArm(
    ledger: TimingLedger,
    run: RunRow,
    row: Pick<ActionRow, 'action_index' | 'error_code' | 'http_status'>,
    outcome: 'failed' | 'dead',
  ): Promise<boolean> {
    const progress = timelineProgress(run.timeline ?? []);
    const step = failureArmStep(run, progress, row, outcome, this.clock.now());
    if (step.entry) {
      await this.record(ledger, run, step.entry);
      this.logger.log(`rule ${run.rule_id}: run ${run.id} took on-failure of action ${row.action_index + 1}`);
    }
    return step.taken;
  }

  /** An action in an arm the run did not take: skipped, the run goes on. */
  private async skipNotTaken(
    ledger: TimingLedger,
    run: RunRow,
    row: { id: string; action_index: number },
    progress: TimelineProgress,
  ): Promise<GateOutcome> {
    const off = armNotTaken(run.timing!, progress.decided, row.action_index)!;
    await ledger.actions.skip(row.id, 'branch_not_taken', `in ${off.arm.label}, not the arm taken`);
    return 'skip';
  }

  /** The run sleeps until `until` (recorded `waiting`), a delayed job wakes it: also the policy gate's defer. */
  async sleep(
    run: RunRow,
    ledger: TimingLedger,
    now: Date,
    until: Date,
    entry: TimelineEntry,
  ): Promise<GateOutcome> {
    const waiting = { ...entry, until: until.toISOString() };
    await ledger.runs.startWaiting(run.id, until, waiting);
    run.timeline = [...(run.timeline ?? []), waiting];
    // After the ledger says waiting: a job that fires first finds the run due and wakes it.
    await this.queue.wakeAt(
      { id: run.id, contactId: run.contact_id, correlationId: run.correlation_id, priority: run.priority },
      until,
      now,
    );
    this.logger.log(`rule ${run.rule_id}: run ${run.id} waits until ${waiting.until} (${entry.for})`);
    return 'stop';
  }

  /**
   * A host at its limit (HostLimitedError, before anything was sent): the action is pending again
   * (the attempt not counted) and the run sleeps until the host has room, like a closed window.
   * It never ends the action: a limit is a schedule, not a failure.
   */
  async deferForHost(
    ledger: TimingLedger,
    run: RunRow,
    row: { id: string; action_index: number },
    err: HostLimitedError,
  ): Promise<'waiting'> {
    const now = this.clock.now();
    await ledger.actions.deferUnsent(row.id, 'host_limited', err.message);
    const until = new Date(now.getTime() + err.retryInMs);
    const entry = { at: now.toISOString(), step: 'waiting' as const, for: 'host' as const };
    await this.sleep(run, ledger, now, until, { ...entry, action: row.action_index, detail: err.message });
    return 'waiting';
  }

  private async cancel(
    ledger: TimingLedger,
    run: RunRow,
    entry: TimelineEntry,
    onlyWaiting: boolean,
  ): Promise<'stop'> {
    if (await ledger.runs.cancel(run.id, entry, onlyWaiting))
      await ledger.actions.skipRemaining(run.id, -1, entry.reason ?? 'cancelled');
    this.logger.log(`rule ${run.rule_id}: run ${run.id} cancelled: ${entry.reason}`);
    return 'stop';
  }

  private async record(ledger: TimingLedger, run: RunRow, entry: TimelineEntry): Promise<void> {
    await ledger.runs.record(run.id, entry);
    run.timeline = [...(run.timeline ?? []), entry];
  }
}
