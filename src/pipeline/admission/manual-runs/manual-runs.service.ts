// A rule run by hand for one contact (POST /admin/rules/:id/run, `crm-rules run`, the console's
// "Run for a contact"). The rule's conditions are evaluated against the contact's current state
// (a manual run carries no event: `event.*` and `message.*` facts are absent, so conditions on
// them do not hold). A dry run answers the explain (each condition with its value, each action
// with its guard verdict) and writes nothing. A real run is created with trigger
// `manual:<who>:<id>` through the same admission as an event's runs (pause, once, cooldown,
// at-most) and goes to the actions queue: guards, limits, the budget and at-most-once all apply.
import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { applyActionLocally, guardAction } from '../../../language/catalogue/action-guards';
import { poolRotationOf } from '../../../language/assignment/pool-spec';
import { resolveAction } from '../../../language/catalogue/resolve-action';
import { ENGINE_CLOCK, type EngineClock } from '../../../runtime/config/engine-clock';
import { CrmDirectory } from '../../../outbound/crm-gateway/crm-directory.service';
import { CrmApiError } from '../../../language/crm-terms/crm-errors';
import { CrmReads } from '../../../outbound/crm-gateway/crm-reads';
import { isUuid } from '../../../outbound/crm-gateway/crm-http';
import type { Contact } from '@crm-rules/crm-contract';
import { createRun, type NewRun, type PendingRun } from '../create-run';
import { RunsRepository } from '../../../persistence/ledger/runs.repository';
import { formatEvaluation } from '../../../language/matching/format-explain';
import { ActionsQueue } from '../../../runtime/queues/actions-queue.service';
import { RuleControlsService } from '../../../runtime/rule-controls/rule-controls.service';
import { RuleSetService } from '../../../runtime/rule-set/rule-set.service';
import type { ConditionTrace, RuleAction } from '../../../language/rules/format/rule-types';
import {
  MANUAL_EVENT_TYPE,
  manualRunRefusal,
  manualTriggerKey,
  type ManualRunRefusal,
} from './manual-trigger';

export interface ActionPreview {
  type: string;
  action: RuleAction;
  /** would_run: the runner would call the CRM; skipped: its guard refuses (reason); error: a name the CRM lacks. */
  verdict: 'would_run' | 'skipped' | 'error';
  reason?: string;
  detail?: string;
}

export interface ManualRunExplain {
  ruleId: string;
  ruleVersion: string;
  contactId: string;
  matched: boolean;
  mode: 'live' | 'shadow';
  paused: boolean;
  conditions: ConditionTrace[];
  actions: ActionPreview[];
  /** The explain as `crm-rules explain` prints it (the CLI and the console show these lines). */
  lines: string[];
}

export type ManualRunResult =
  /** `idempotencyKey`: to send back with the confirmation; a second submit of it does nothing. */
  | { ok: true; dryRun: true; explain: ManualRunExplain; idempotencyKey: string }
  | {
      ok: true;
      dryRun: false;
      run: { id: string; status: string; triggerKey: string; by: string };
      explain: ManualRunExplain;
      /** True when the key was submitted before: `run` is that first run, nothing else happened. */
      repeated: boolean;
    }
  | { ok: false; refusal: ManualRunRefusal };

@Injectable()
export class ManualRunsService {
  private readonly logger = new Logger(ManualRunsService.name);

  constructor(
    private readonly rules: RuleSetService,
    private readonly gateway: CrmReads,
    private readonly directory: CrmDirectory,
    private readonly controls: RuleControlsService,
    private readonly actions: ActionsQueue,
    private readonly db: DataSource,
    @Inject(ENGINE_CLOCK) private readonly clock: EngineClock,
  ) {}

  async run(
    ruleId: string,
    contactId: string,
    opts: { dryRun: boolean; by: string; idempotencyKey?: string },
  ): Promise<ManualRunResult> {
    const set = await this.rules.loaded();
    const rule = set.rule(ruleId);
    const refused = manualRunRefusal(rule, ruleId);
    if (refused) return { ok: false, refusal: refused };
    if (!isUuid(contactId))
      return {
        ok: false,
        refusal: { status: 400, code: 'invalid_contact', message: 'contactId must be a uuid' },
      };
    if (opts.idempotencyKey !== undefined && !isUuid(opts.idempotencyKey))
      return {
        ok: false,
        refusal: { status: 400, code: 'invalid_idempotency_key', message: 'idempotencyKey must be a uuid' },
      };
    const correlationId = `manual-${randomUUID()}`;
    let contact: Contact;
    try {
      contact = await this.gateway.getContact(contactId.toLowerCase(), {
        priority: 'interactive',
        correlationId,
      });
    } catch (err) {
      if (err instanceof CrmApiError && err.status === 404)
        return {
          ok: false,
          refusal: { status: 404, code: 'unknown_contact', message: `no CRM contact ${contactId}` },
        };
      throw err;
    }
    const facts = {
      event: { type: MANUAL_EVENT_TYPE, data: {} },
      contact: contact as unknown as Record<string, unknown>,
      now: this.clock.now(),
    };
    const evaluation = { ...(await set.evaluateRule(rule!.id, facts)), mode: this.controls.modeOf(rule!) };
    const paused = this.controls.isPaused(rule!.id);
    const explain: ManualRunExplain = {
      ruleId: rule!.id,
      ruleVersion: rule!.version,
      contactId: contact.id,
      matched: evaluation.matched,
      mode: evaluation.mode,
      paused,
      conditions: evaluation.trace,
      actions: evaluation.matched ? await this.preview(rule!.id, evaluation.actions, contact) : [],
      lines: formatEvaluation(rule!, evaluation),
    };
    if (opts.dryRun) return { ok: true, dryRun: true, explain, idempotencyKey: randomUUID() };

    // The idempotency key is the trigger key's request id: UQ_runs_trigger_rule_contact stores it
    // once, so a second submit of one confirmation finds the first run and does nothing.
    const triggerKey = manualTriggerKey(opts.by, opts.idempotencyKey?.toLowerCase());
    const runs = new RunsRepository(this.db);
    const first = await runs.views.ofTrigger(triggerKey, rule!.id, contact.id);
    if (first) return this.repeated(first, triggerKey, opts.by, explain);
    const input: NewRun = {
      triggerKey,
      triggerAt: new Date(),
      inboxEventId: null,
      eventType: MANUAL_EVENT_TYPE,
      priority: 'interactive',
      rule: rule!,
      ruleSetVersion: set.version,
      ...(set.commit ? { rulesCommit: set.commit } : {}),
      contactId: contact.id,
      evaluation,
      paused,
      contactSnapshot: contact as unknown as Record<string, unknown>,
      correlationId,
    };
    // A manual trigger's time is its first submit's, so the unique key alone cannot tell two submits
    // at once apart: the second waits on the trigger's lock and then finds the first one's run.
    type Outcome = { repeat: { id: string; status: string } } | { created: PendingRun };
    const outcome = await this.db.transaction(async (tx): Promise<Outcome> => {
      const inTx = runs.in(tx);
      await inTx.lockTrigger(triggerKey);
      const stored = await inTx.views.ofTrigger(triggerKey, rule!.id, contact.id);
      return stored ? { repeat: stored } : { created: await createRun(tx, input) };
    });
    if ('repeat' in outcome) return this.repeated(outcome.repeat, triggerKey, opts.by, explain);
    const { created } = outcome;
    // Committed first, enqueued second: if Redis is down the reconciler finds the pending run.
    if (created.status === 'pending')
      await this.actions
        .add({ id: created.id, contactId: created.contactId, correlationId, priority: 'interactive' })
        .catch((err: Error) =>
          this.logger.warn(
            `manual run ${created.id} stored but not enqueued (the reconciler will): ${err.message}`,
          ),
        );
    this.logger.log(
      `manual run ${created.id} of ${rule!.id} for ${contact.id} by ${opts.by}: ${created.status}`,
    );
    return {
      ok: true,
      dryRun: false,
      run: { id: created.id, status: created.status, triggerKey, by: opts.by },
      explain,
      repeated: false,
    };
  }

  private repeated(
    run: { id: string; status: string },
    triggerKey: string,
    by: string,
    explain: ManualRunExplain,
  ): ManualRunResult {
    this.logger.log(`manual run ${run.id} submitted again with its idempotency key: nothing done`);
    return { ok: true, dryRun: false, run: { ...run, triggerKey, by }, explain, repeated: true };
  }

  /** What the runner would do with each action for this contact: the catalogue's guards, in order. */
  private async preview(
    ruleId: string,
    actions: readonly RuleAction[],
    start: Contact,
  ): Promise<ActionPreview[]> {
    let contact = start;
    const out: ActionPreview[] = [];
    for (const [index, action] of actions.entries()) {
      try {
        // The pool's next turn for this rule's action, peeked: a preview never moves the rotation.
        const rotation = poolRotationOf(ruleId, index);
        const resolved = await resolveAction(this.directory, action, {}, { dryRun: true, rotation });
        const verdict = guardAction(resolved, contact);
        if (!verdict.proceed) {
          out.push({
            type: action.type,
            action,
            verdict: 'skipped',
            reason: verdict.reason,
            detail: verdict.detail,
          });
          continue;
        }
        contact = applyActionLocally(resolved, contact);
        out.push({ type: action.type, action, verdict: 'would_run' });
      } catch (err) {
        out.push({ type: action.type, action, verdict: 'error', detail: (err as Error).message });
      }
    }
    return out;
  }
}
