// The messaging policy (policy.yaml) as the action runner meets it: before a customer message
// (a catalogue entry with `customerMessage`) is first attempted, count what the contact got from
// the ledger and ask the pure decision (src/language/policy/messaging-policy.ts): go, skip (recorded
// `policy_cap` / `quiet_hours`) or defer (the run waits, durably, like a window). The runner holds
// the contact's lease (contact-lease.ts) from this count to the send, so two workers never both
// see room for the last message. Other actions, and every action when there is no policy, cost nothing.
// Before the policy, policy or not: a run in a split's control arm sends no message (`control_arm`,
// src/language/rules/gates/control-hold.ts).
import { Inject, Injectable, Logger } from '@nestjs/common';
import { warnMessageSkip } from '../message-skip-log';
import type { Contact } from '@crm-rules/crm-contract';
import type { RunRow } from '../../../persistence/ledger/run-rows';
import { EngineMetrics } from '../../../operator/ops/engine-metrics';
import {
  inboundAt,
  ledgerNeeds,
  policyApplies,
  type MessagingPolicy,
} from '../../../language/policy/messaging-policy';
import { CUSTOMER_MESSAGE_TYPES, isCustomerMessage } from '../../../language/policy/customer-messages';
import { judgeMessage } from '../../../language/policy/judge-message';
import { declaredCategory, policyContactOf } from '../../../language/policy/policy-categories';
import { RuleSetService } from '../../../runtime/rule-set/rule-set.service';
import { heldByControlArm } from '../../../language/rules/gates/control-hold';
import { timelineProgress } from '../../../persistence/ledger/run-timeline-entry';
import type { SkipReason } from '../../../language/catalogue/action-definition';
import type { RuleAction } from '../../../language/rules/format/rule-types';
import { ENGINE_CLOCK, systemClock, type EngineClock } from '../../../runtime/config/engine-clock';
import { RunTimingService, type GateOutcome, type TimingLedger } from './run-timing.service';

@Injectable()
export class PolicyGateService {
  private readonly logger = new Logger(PolicyGateService.name);

  constructor(
    private readonly rules: RuleSetService,
    private readonly timing: RunTimingService,
    private readonly metrics: EngineMetrics,
    // The engine's clock (tests move it), as for waits and windows.
    @Inject(ENGINE_CLOCK) private readonly clock: EngineClock = systemClock(),
  ) {}

  /** The policy in force now (the organization's, not the run's rule set: it applies to every send). */
  private policy(): MessagingPolicy | undefined {
    return this.rules.current()?.policy;
  }

  /** Before the pending action of a run: go, skip it (recorded) or stop (the run waits). */
  async gate(
    ledger: TimingLedger,
    run: RunRow,
    row: { id: string; action_index: number; action: unknown },
    contact: Contact,
  ): Promise<GateOutcome> {
    const type = (row.action as RuleAction).type;
    if (!isCustomerMessage(type)) return 'go';
    // A run in a split's control arm sends no message, policy or not (control-hold.ts).
    const decided = timelineProgress(run.timeline ?? []).decided;
    const control = heldByControlArm(run.timing, decided, row.action_index, type);
    if (control) return this.skip(ledger, run, row, type, { reason: 'control_arm', detail: control });
    const policy = this.policy();
    if (!policyApplies(policy)) return 'go';
    const now = judgedAt(run, this.clock.now());
    const needs = ledgerNeeds(policy);
    // The ledger's send times (Postgres's clock) and the CRM's inbound time are real instants:
    // read on the engine clock, as `now` is (the same unless ENGINE_CLOCK_OFFSET_MS moves it).
    const sent = needs
      ? (
          await ledger.actions.views.messagesWithCategorySentTo(
            run.contact_id,
            CUSTOMER_MESSAGE_TYPES,
            this.clock.toWallClock(new Date(now.getTime() - needs.periodMs)),
            needs.rows,
          )
        ).map((m) => ({ ...m, at: this.clock.fromWallClock(m.at) }))
      : [];
    const inbound = inboundAtOf(run);
    // The same decision as rule tests, forecast and diff (judge-message.ts), with the same inputs.
    const category = declaredCategory(row.action);
    const decision = judgeMessage(policy, {
      type,
      ...(category ? { category } : {}),
      now,
      contact: policyContactOf(contact as unknown as Record<string, unknown>),
      sent,
      inboundAt: inbound && this.clock.fromWallClock(inbound),
    });
    if (!decision) return 'go';
    const at = now.toISOString();
    const action = row.action_index;
    switch (decision.kind) {
      case 'go':
        return 'go';
      case 'skip':
        return this.skip(ledger, run, row, type, decision, now);
      case 'defer':
        return this.timing.sleep(run, ledger, now, decision.until, {
          at,
          step: 'waiting',
          for: 'policy',
          action,
          ...reasonOf(decision),
        });
    }
  }

  /** The message is skipped: the action's reason, a `skipped` timeline entry, the metric, a log line. */
  private async skip(
    ledger: TimingLedger,
    run: RunRow,
    row: { id: string; action_index: number; action: unknown },
    type: string,
    d: { reason: SkipReason; detail: string },
    now = this.clock.now(),
  ): Promise<GateOutcome> {
    await ledger.actions.skip(row.id, d.reason, d.detail);
    await ledger.runs.record(run.id, {
      at: now.toISOString(),
      step: 'skipped',
      action: row.action_index,
      ...reasonOf(d),
    });
    this.metrics.actions.inc({ type, status: 'skipped', reason: d.reason });
    warnMessageSkip(this.logger, run, row, d.reason);
    return 'skip';
  }
}

/** How early a delayed job may wake a run (RunsRepository.dueWaiting accepts it that early). */
const WAKE_TOLERANCE_MS = 1000;

/**
 * The time a run is judged at: now, or the time its last wait was due when a job woke it a moment
 * early (clocks of two hosts). Judged at `now` it would defer to that same time again, with the
 * job id of the job running now, which BullMQ ignores: the run would sleep until the reconciler.
 */
export function judgedAt(run: Pick<RunRow, 'timeline'>, now: Date): Date {
  const waits = (run.timeline ?? []).filter((e) => e.step === 'waiting' && e.until);
  const due = waits.length > 0 ? new Date(waits[waits.length - 1].until!) : undefined;
  const early = due ? due.getTime() - now.getTime() : 0;
  return due && early > 0 && early <= WAKE_TOLERANCE_MS ? due : now;
}

const reasonOf = (d: { reason: string; detail: string }) => ({ reason: d.reason, detail: d.detail });

/** When the inbound message a message.* run answers was created; undefined for other triggers. */
export function inboundAtOf(run: Pick<RunRow, 'event_payload'>): Date | undefined {
  const payload = run.event_payload;
  if (!payload || !String(payload.type ?? '').startsWith('message.')) return undefined;
  return inboundAt(payload.data as Record<string, unknown> | undefined);
}
