// One stored event through the stages, in order: the rule set, a custom source's contact
// (execution), the plan (matching), the contacts mirror and the waits the event ends (side by side),
// the facts and the runs they decide (matching), the ledger write (admission's recorders), dispatch
// (admission: inline or an actions job). The only place that calls them all; no stage imports it.
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ENGINE_CLOCK, type EngineClock } from '../../runtime/config/engine-clock';
import { ContactMirrorService } from '../contact-mirror/contact-mirror.service';
import type { Contact } from '@crm-rules/crm-contract';
import type { NewRun, PendingRun } from '../admission/create-run';
import { OWN_WRITE_LOOP, OWN_WRITE_LOOP_WINDOW_MS } from '../admission/loop-brake';
import type { InboxOutcome } from '../../persistence/ledger/inbox-event.entity';
import type { InboxEventRow } from '../../persistence/ledger/inbox-events.repository';
import type { CompiledRuleSet } from '../../language/matching/compiled-rule-set';
import { EngineMetrics } from '../../operator/ops/engine-metrics';
import { ActionsQueue } from '../../runtime/queues/actions-queue.service';
import { RuleSetService } from '../../runtime/rule-set/rule-set.service';
import { customSourceOf, isCustomEventKind } from '../../language/rules/format/custom-event-kind';
import { CustomContactResolver } from '../execution/custom-contacts/custom-contact-resolver.service';
import { WaitCancellationService } from '../execution/timing/wait-cancellation.service';
import { eventFacts, type StoredEvent } from '../matching/event-plan';
import { EventMatcher } from '../matching/event-matcher.service';
import { EventRecords, isOperatorReplay } from '../admission/event-records.service';
import { RunDispatchService } from '../admission/run-dispatch.service';
import { MatchedEventsRecorder } from '../admission/matched-events-recorder';
import { UnmatchedEventsRecorder } from '../admission/unmatched-events-recorder';

/**
 * Turns one stored event into runs: matching evaluates the rules listening to its kind against the
 * freshest contact state; every run (matched or not, with its explain trace) plus the event's
 * "processed" mark is written in one transaction, shared with the concurrent jobs' events (the
 * recorders). Actions are enqueued after the commit.
 */
@Injectable()
export class EventPipeline {
  private readonly logger = new Logger(EventPipeline.name);

  constructor(
    private readonly rules: RuleSetService,
    private readonly metrics: EngineMetrics,
    private readonly mirror: ContactMirrorService,
    private readonly ledger: EventRecords,
    private readonly actions: ActionsQueue,
    private readonly waits: WaitCancellationService,
    private readonly matcher: EventMatcher,
    private readonly dispatcher: RunDispatchService,
    private readonly unmatched: UnmatchedEventsRecorder,
    private readonly matched: MatchedEventsRecorder,
    private readonly customContacts: CustomContactResolver,
    // `now` of the waits the event ends is the engine's.
    @Inject(ENGINE_CLOCK) private readonly clock: EngineClock,
  ) {}

  async processById(inboxEventId: string, correlationId: string): Promise<void> {
    const row = await this.ledger.find(inboxEventId);
    if (row) await this.process(row, correlationId);
  }

  /** The stored rows of an intake batch's events, in one read (a row may be gone: retention). */
  rowsOf(inboxEventIds: readonly string[]): Promise<InboxEventRow[]> {
    return this.ledger.findMany(inboxEventIds);
  }

  /** One stored event, already read; concurrent calls share the batched ledger and mirror writes. */
  async process(stored: InboxEventRow, correlationId: string): Promise<void> {
    if (stored.status === 'processed') return this.requeueUnfinished(stored.id, correlationId);
    if (stored.status !== 'pending') return;
    // A job taken while the worker starts may come before the rule set is loaded: wait for it
    // (an event matched against no set would be marked processed without its runs).
    let ruleSet = this.rules.current();
    if (!ruleSet) {
      this.logger.log(
        `event ${stored.type} ${stored.id}: waiting for the rule set to load [${correlationId}]`,
      );
      ruleSet = await this.rules.loaded();
    }
    const row = await this.withCustomContact(stored, ruleSet, correlationId);
    if (!row) return;
    const event = storedEvent(row);
    const plan = this.matcher.plan(row, event, ruleSet);
    // Independent of each other, so side by side (one round trip of latency instead of two):
    // a payload the mirror cannot keep is noted on the event and matched all the same; whatever
    // rules listen to it, the event may end waiting runs (`until`, a deleted contact).
    const [mirrorSkipped] = await Promise.all([
      plan.updateMirror
        ? this.mirror.applyEvent(row.type, row.payload.data as unknown as Contact, plan.capture)
        : null,
      row.contact_id && !event.replay ? this.endWaitsAndGoals(row.contact_id, event) : 0,
    ]);
    const note = mirrorSkipped && `contact mirror not updated: ${mirrorSkipped}`;
    const outcome = note ? 'mirror_skipped' : null;
    if (!plan.match) {
      await this.ledger.endWithoutRuns(row, outcome, note);
      return;
    }
    const decided = await this.matcher.match(row, event, ruleSet, plan, mirrorSkipped, correlationId);
    if (decided.outcome === 'contact_gone') {
      await this.ledger.endWithoutRuns(row, 'contact_gone');
      this.logger.log(`event ${row.type} ${row.id}: contact ${row.contact_id} is gone [${correlationId}]`);
      return;
    }
    const { runs } = decided;
    // No rule matched (most events): the decision on the event's own row, no runs, in a batched
    // claim shared with concurrent jobs.
    if (!runs.some((run) => run.evaluation.matched) && !outcome && !note) {
      if (
        await this.unmatched.record({
          inboxEventId: row.id,
          runs,
          payload: row.payload,
          previous: row.previous_contact ?? plan.capture?.previous,
        })
      )
        for (const run of runs) this.metrics.runs.inc({ status: 'not_matched', rule: run.rule.id });
      return;
    }
    const pending = await this.recordRuns(row.id, runs, { outcome, note });
    // Executed here when the contact is free (first CRM call without a second queue hop), else queued.
    const how = await this.dispatcher.dispatch(pending.map((run) => ({ ...run, correlationId })));
    if (how)
      this.logger.log(`event ${row.type} ${row.id}: ${pending.length} run(s), ${how} [${correlationId}]`);
  }

  /**
   * A custom source's event names its contact in the payload (sources.yaml): found (or created)
   * and kept on the event by execution's resolver, once, when a rule listens. Not found is final
   * and visible: the resolver ends the event contact_not_found (undefined: nothing more to do).
   */
  private async withCustomContact(
    row: InboxEventRow,
    ruleSet: CompiledRuleSet,
    correlationId: string,
  ): Promise<InboxEventRow | undefined> {
    if (row.contact_id || !isCustomEventKind(row.type) || ruleSet.rulesForEvent(row.type).length === 0)
      return row;
    const name = customSourceOf(row.type);
    return this.customContacts.resolve(row, { name, declared: ruleSet.sources.get(name) }, correlationId);
  }

  /**
   * The event was processed, yet its job runs again: the worker that processed it died (or stalled)
   * after the commit, maybe while executing its runs inline. Whatever it left unfinished goes to the
   * actions queue now, as it would have without the inline attempt (a waiting run gets its wake
   * job: the worker may have died between the `waiting` mark and adding it); finished runs are not touched.
   */
  private async requeueUnfinished(inboxEventId: string, correlationId: string): Promise<void> {
    const unfinished = await this.ledger.unfinishedRunsOf(`event:${inboxEventId}`);
    for (const run of unfinished)
      await this.actions.ensure({ ...run, correlationId: run.correlationId ?? correlationId });
  }

  /** Waits the event ends and goals it meets; a goal on a message event reads the contact from the mirror. */
  private endWaitsAndGoals(contactId: string, event: StoredEvent): Promise<number> {
    const fromMirror = async () =>
      (await this.mirror.find(contactId)) as unknown as Record<string, unknown> | undefined;
    return this.waits.onEvent(contactId, eventFacts(event, this.clock.now()), fromMirror);
  }

  /** Batched with concurrent jobs' events (MatchedEventsRecorder); returns those to execute. */
  private async recordRuns(
    inboxEventId: string,
    runs: NewRun[],
    end: { outcome: InboxOutcome | null; note: string | null },
  ): Promise<PendingRun[]> {
    const created = await this.matched.record({ inboxEventId, runs, ...end });
    return created ? this.countRuns(runs, created) : [];
  }

  /** Counts the runs written (`created[i]` is `runs[i]` as written); returns those to execute. */
  private countRuns(runs: NewRun[], created: PendingRun[]): PendingRun[] {
    created.forEach((run, i) => {
      this.metrics.runs.inc({ status: run.status, rule: runs[i].rule.id });
      if (run.reason === OWN_WRITE_LOOP.reason) {
        // Every suppression visible: the metric, this line, and the run (suppressed own_write_loop).
        this.metrics.loopBrake.inc({ rule: runs[i].rule.id });
        this.logger.log(
          `loop brake: rule ${runs[i].rule.id} suppressed for contact ${run.contactId} (run ${run.id}, own write within ${OWN_WRITE_LOOP_WINDOW_MS / 1000} s)`,
        );
      }
    });
    // Skips of runs settled at creation, counted as the runner counts its own (after the commit).
    for (const { type, reason } of created.flatMap((run) => run.settled ?? []))
      this.metrics.actions.inc({ type, status: 'skipped', reason });
    return created.filter((run) => run.status === 'pending');
  }
}

function storedEvent(row: InboxEventRow): StoredEvent {
  return {
    type: row.type,
    replay: isOperatorReplay(row),
    contactId: row.contact_id,
    payload: row.payload,
  };
}
