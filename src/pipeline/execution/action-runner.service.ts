import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CrmDirectory } from '../../outbound/crm-gateway/crm-directory.service';
import { CrmWrites } from '../../outbound/crm-gateway/crm-writes';
import type { Contact } from '@crm-rules/crm-contract';
import { ContactJournalRepository } from '../../persistence/journal/contact-journal.repository';
import { ContactMirrorService } from '../contact-mirror/contact-mirror.service';
import { fenced } from '../../persistence/sql/fenced';
import { ContactLeasesRepository } from '../../persistence/ledger/contact-leases.repository';
import { ActionResultsRepository, type ActionRow } from '../../persistence/ledger/action-results.repository';
import type { ActionStatus, ActionTarget } from '../../language/catalogue/action-result-terms';
import type { RunRow } from '../../persistence/ledger/run-rows';
import { RunsRepository } from '../../persistence/ledger/runs.repository';
import { EngineMetrics } from '../../operator/ops/engine-metrics';
import { RunTimingService } from './timing/run-timing.service';
import { PolicyGateService } from './timing/policy-gate.service';
import { templateFactsOf } from './timing/run-facts';
import type { RuleAction } from '../../language/rules/format/rule-types';
import { applyActionLocally, guardAction } from '../../language/catalogue/action-guards';
import { executeAction } from '../../language/catalogue/execute-action';
import type { ExecutionEnv, TriggerMessage } from '../../language/catalogue/action-definition';
import { runningMarkDurable } from '../../language/catalogue/action-definition';
import { actionDefinition } from '../../language/catalogue/catalogue';
import { resolveAction } from '../../language/catalogue/resolve-action';
import { describeFailure } from './action-failure';
import { CrmCallTally } from './crm-call-tally';
import { settleFailure } from './settle-failure';
import { freshestContact, messageOf, needsFreshRead, nextStep } from './run-steps';
import { assignFirstIfNeeded, pickFromPool, pickMember } from './member-pick';
import {
  TransientActionError,
  type ActionOutcome as Outcome,
  type RunRepositories as Ledger,
} from './run-repositories';
import { settleAfterRunning, settleUnclear } from './unclear-outcome';
import { withContactLease, type HeldLease } from './contact-lease';
import { startRun, type MirrorRead, type RunStart } from './run-start';
import { sentForOriginal, skipSentForOriginal } from './replay-sent-skip';
import { OutboundRequests } from '../../outbound/egress/outbound-requests.service';
import { outboundFor, savedSteps, type SavedSteps } from './http-request-action';
import { noteCrmAnswers } from '../../outbound/crm-gateway/crm-answers';
import { warnMessageSkip } from './message-skip-log';
import { HostLimitedError } from '../../language/net/egress-errors';
import { poolRotationOf, type PoolSpec } from '../../language/assignment/pool-spec';

interface ExecutionContext {
  contact: Contact;
  /** message.* runs: the message the rule answers. */
  message?: TriggerMessage;
  /** What earlier http-request steps of the run saved ({{steps.<name>.<key>}}). */
  steps: SavedSteps;
}

export class ContactBusyError extends Error {}

/** The contact as branch conditions read it (a fact object). */
const contactFacts = (contact: Contact) => contact as unknown as Record<string, unknown>;

/**
 * Executes the pending runs of one contact in trigger order. A lease on the contact (a row in
 * contact_leases, contact-lease.ts) makes "same contact in order, different contacts in parallel"
 * hold across workers without holding a Postgres connection while a call waits for budget.
 */
@Injectable()
export class ActionRunnerService {
  private readonly logger = new Logger(ActionRunnerService.name);
  private readonly readMirror: MirrorRead = (contactId, db) => this.mirror.find(contactId, db);

  constructor(
    private readonly dataSource: DataSource,
    private readonly leases: ContactLeasesRepository,
    private readonly runs: RunsRepository,
    private readonly actionResults: ActionResultsRepository,
    private readonly gateway: CrmWrites,
    private readonly directory: CrmDirectory,
    private readonly metrics: EngineMetrics,
    private readonly mirror: ContactMirrorService,
    private readonly journal: ContactJournalRepository,
    private readonly timing: RunTimingService,
    private readonly outbound: OutboundRequests,
    private readonly policy: PolicyGateService,
  ) {}

  /**
   * Runs every unfinished run of the contact up to and including `runId`. `justCreated`: the run
   * was created pending by this process a moment ago (inline dispatch), so it is no waiting run
   * to wake, and the wake's look-up is spared.
   */
  async runForContact(
    contactId: string,
    runId: string,
    finalAttempt: boolean,
    justCreated = false,
  ): Promise<void> {
    const outcome = await withContactLease(this.leases, contactId, async (lease) => {
      // Ledger statements go over the pool, each checked against the lease first.
      const ledger = this.ledgerWhile(lease);
      // A job that wakes a waiting run: resume it (or cancel it) before working the contact's runs.
      if (!justCreated) await this.timing.wake(ledger, runId);
      // A run created a moment ago is most often its contact's only unfinished one: its start is
      // read beside the look-up (one round trip, not two), and used only if it is first in line.
      const [unfinished, early] = await Promise.all([
        ledger.runs.unfinishedUpTo(contactId, runId),
        justCreated ? startRun(ledger, this.readMirror, { id: runId, contactId }) : undefined,
      ]);
      for (const run of unfinished) {
        const started = run.id === runId && unfinished.length === 1 ? early : undefined;
        await this.executeRun(ledger, run, finalAttempt && run.id === runId, started);
      }
    });
    if (!outcome.acquired)
      throw new ContactBusyError(`contact ${contactId} is being worked on by another job`);
  }

  /** The pool, fenced: a job that lost its lease (LeaseLostError) writes nothing more. */
  private ledgerWhile(lease: HeldLease): Ledger {
    const conn = fenced(this.dataSource, () => lease.assertHeld());
    return { conn, runs: this.runs.in(conn), actions: this.actionResults.in(conn) };
  }

  private async executeRun(
    ledger: Ledger,
    run: RunRow,
    finalAttempt: boolean,
    started?: RunStart,
  ): Promise<void> {
    const { actions, mirrored } =
      started ?? (await startRun(ledger, this.readMirror, { id: run.id, contactId: run.contact_id }));
    // A row left `running` means a crash mid-call: read the contact again so guards see the write
    // if it happened (no_change), instead of repeating it.
    const contact = needsFreshRead(actions.map((a) => a.status))
      ? await this.readContact(run)
      : freshestContact(run.contact_snapshot as unknown as Contact, mirrored);
    const ctx: ExecutionContext = { contact, message: messageOf(run), steps: savedSteps(actions) };
    // A replay without force: messages sent (or maybe sent) for the original trigger are not sent again.
    const sent = await sentForOriginal(ledger, run);
    for (const row of actions) {
      const step = nextStep(row.status);
      if (step === 'skip') continue;
      if (step === 'execute' && (await skipSentForOriginal(ledger, this.metrics, run, row, sent))) continue;
      // Waits, windows and limits come before an action is first attempted (src/pipeline/execution/timing).
      const gate =
        step === 'execute' ? await this.timing.gate(ledger, run, row, contactFacts(ctx.contact)) : 'go';
      if (gate === 'stop') return;
      if (gate === 'skip') continue;
      // Then the messaging policy (policy.yaml): caps and quiet hours of customer messages.
      const held = step === 'execute' ? await this.policy.gate(ledger, run, row, ctx.contact) : 'go';
      if (held === 'stop') return;
      if (held === 'skip') continue;
      const outcome =
        step === 'stop'
          ? (row.status as Extract<ActionStatus, 'failed' | 'dead' | 'uncertain'>)
          : await this.executeOne(ledger, run, row, ctx, finalAttempt, step === 'reread');
      if (outcome === 'waiting') return;
      if (outcome === 'failed' || outcome === 'dead')
        if (await this.timing.takeFailureArm(ledger, run, row, outcome)) continue;
      if (outcome !== 'next') {
        const reason = outcome === 'uncertain' ? 'previous_action_uncertain' : 'previous_action_failed';
        await ledger.actions.skipRemaining(run.id, row.action_index, reason);
        await ledger.runs.finish(run.id, outcome);
        return;
      }
    }
    await ledger.runs.finish(run.id, 'succeeded');
  }

  /** `interrupted`: the row was left `running` by a crash mid-call, so the write may have happened. */
  private async executeOne(
    ledger: Ledger,
    run: RunRow,
    row: ActionRow,
    ctx: ExecutionContext,
    finalAttempt: boolean,
    interrupted: boolean,
  ): Promise<Outcome> {
    const action = row.action as RuleAction;
    // Budget waits and calls of this action, for the contact timeline (contact_journal).
    const started = Date.now();
    const calls = new CrmCallTally(this.journal, run, row, action.type, started);
    const def = actionDefinition(action.type);
    const base = {
      priority: run.priority,
      correlationId: run.correlation_id ?? undefined,
      onGranted: calls.onGranted,
    };
    // The gateway must not repeat a customer-facing write on an outcome that may have applied it.
    const opts = def.repeat === 'at-most-once' ? { ...base, retryUnclear: false } : base;
    const target: ActionTarget = { ...(row.target ?? {}) };
    const outboundRow = def.repeat === 'idempotent-by-key';
    let since = row.started_at ? new Date(row.started_at) : new Date();
    const fail = (err: unknown) =>
      err instanceof HostLimitedError
        ? this.timing.deferForHost(ledger, run, row, err)
        : settleFailure(
            ledger,
            { metrics: this.metrics, logger: this.logger },
            {
              run,
              row,
              err,
              durationMs: Date.now() - started,
              // One setting bounds an http-request's sends, however they came (row.attempts: before this one).
              finalAttempt: finalAttempt || (outboundRow && row.attempts + 1 >= this.outbound.maxAttempts),
            },
          );
    // Set once an at-most-once write's `running` mark is committed: from then on every error is
    // judged by verdictAfterRunning (write-verdict.ts), the one place that may let it be retried.
    let afterRunning: ((err: unknown) => Promise<Outcome>) | undefined;
    try {
      // After a wait that ended with its event, {{event.*}} / {{message.*}} read that event.
      const facts = templateFactsOf(run, ctx.contact, ctx.steps, row.action_index);
      // Pending again after failing on a name: an operator's retry, so look the names up afresh.
      if (row.error_code === 'unknown_name') this.directory.forgetMisses();
      const member = (name: string) => pickMember(this.directory, ledger.actions, row.id, target, name);
      const rotation = poolRotationOf(run.rule_id, row.action_index);
      const pool = (spec: PoolSpec) =>
        pickFromPool(this.directory, ledger.actions, row.id, target, spec, rotation);
      const resolved = await resolveAction(this.directory, action, facts, { member, pool });
      const outbound = outboundFor(def.repeat, this.outbound, run.id, row.action_index);
      const env: ExecutionEnv = { gateway: this.gateway, opts, ...ctx, target, outbound };
      const unclear = (cause: unknown) =>
        settleUnclear(
          ledger,
          { metrics: this.metrics, logger: this.logger },
          { run, row, resolved, env, since, finalAttempt, cause },
        );
      const settleAfter = (err: unknown) =>
        settleAfterRunning(ledger, this.metrics, { row, type: action.type, started, unclear }, err, () =>
          fail(err),
        );
      if (interrupted && def.repeat === 'at-most-once') {
        afterRunning = settleAfter; // the mark of the interrupted attempt is committed
        return await unclear(undefined);
      }
      if (def.messaging && 'assignFirst' in action) {
        ctx.contact = await assignFirstIfNeeded(this.gateway, ctx.contact, action.assignFirst, member, base);
        env.contact = ctx.contact;
      }
      const guard = guardAction(resolved, ctx.contact);
      if (!guard.proceed) {
        await ledger.actions.skip(row.id, guard.reason, guard.detail);
        this.metrics.actions.inc({ type: action.type, status: 'skipped', reason: guard.reason });
        warnMessageSkip(this.logger, run, row, guard.reason);
        return 'next';
      }
      // The text as rendered for this contact, kept with the target: the run page shows what was sent.
      const text = def.customerMessage && 'text' in resolved ? String(resolved.text) : undefined;
      const aim = def.aim && !target.conversationId;
      if (aim || (text !== undefined && target.text !== text)) {
        if (aim) Object.assign(target, await def.aim!(resolved, env));
        if (text !== undefined) target.text = text;
        await ledger.actions.setTarget(row.id, target);
      }
      since = await ledger.actions.markRunning(row.id, runningMarkDurable(def.repeat));
      if (def.repeat === 'at-most-once') afterRunning = settleAfter;
      // The request id of the CRM's answer to the write (the last 2xx of the action's calls).
      const answer = { lastRequestId: null as string | null };
      const after = await noteCrmAnswers(answer, () => executeAction(resolved, env));
      // Success is recorded first and durably: nothing after it may turn the write into a retry.
      const requestId = answer.lastRequestId;
      await ledger.actions.succeed(row.id, Date.now() - started, requestId, null, outbound?.saved ?? null);
      afterRunning = undefined;
      if (outbound && action.type === 'http-request') ctx.steps[action.name] = outbound.saved;
      calls.note('ok', requestId);
      ctx.contact = after ?? applyActionLocally(resolved, ctx.contact);
      // The CRM's answer is the freshest state there is: later runs' guards start from it (best effort).
      if (after)
        await this.mirror
          .applyEngineWrite(after)
          .catch((err: unknown) =>
            this.logger.warn(`mirror update after ${action.type} failed: ${String(err)}`),
          );
      this.metrics.actions.inc({ type: action.type, status: 'succeeded', reason: '' });
      this.logger.log(
        `rule ${run.rule_id}: ${action.type} on contact ${ctx.contact.id} succeeded [${run.correlation_id ?? '-'}]`,
      );
      return 'next';
    } catch (err) {
      calls.note(describeFailure(err).code, describeFailure(err).requestId);
      // Thrown by settling itself: the row is left as it is and the job retried.
      if (err instanceof TransientActionError) throw err;
      if (afterRunning) return afterRunning(err);
      return fail(err);
    }
  }

  private async readContact(run: RunRow): Promise<Contact> {
    return this.gateway.getContact(run.contact_id, { priority: run.priority });
  }
}
