// Waiting runs ended from outside: a later event the wait says it waits for (`until`, the
// "no reply within" pattern), the contact's deletion, the contact leaving the segment of the rule
// (called by the segment sweep), the rule's `goal` met. A wait with `on-event` is resumed by its
// event instead (the run goes on with on-event, the event recorded for its facts). A succeeded run
// still in its goal window converts when the event meets its goal (goal-conversion.ts).
// Each cancel is one conditional UPDATE (only while the run still waits), so a wake-up that
// happens at the same moment and a cancel cannot both win.
import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ENGINE_CLOCK, type EngineClock } from '../../../runtime/config/engine-clock';
import { MicroBatcher } from '../../../persistence/sql/micro-batcher';
import type { Transactional } from '../../../persistence/sql/queryable';
import { ActionResultsRepository } from '../../../persistence/ledger/action-results.repository';
import { timelineProgress, type TimelineEntry } from '../../../persistence/ledger/run-timeline-entry';
import type { RunRow } from '../../../persistence/ledger/run-rows';
import { RunsRepository } from '../../../persistence/ledger/runs.repository';
import { ActionsQueue } from '../../../runtime/queues/actions-queue.service';
import { goalMet, untilMatches } from '../../../language/rules/gates/run-gates';
import type { EvaluationFacts } from '../../../language/rules/format/rule-types';
import { conversionBy, factsForGoals, type ContactLookup } from './goal-conversion';

@Injectable()
export class WaitCancellationService {
  private readonly logger = new Logger(WaitCancellationService.name);
  /**
   * The waiting-runs lookups of the events handled at once share one statement per batch (on the
   * partial index of waiting runs): most contacts have none, and one lookup per event was a round
   * trip per event. Not a cache: every event still reads the runs waiting at its own moment.
   */
  private readonly lookups: MicroBatcher<string, RunRow[]>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly runs: RunsRepository,
    private readonly queue: ActionsQueue,
    @Inject(ENGINE_CLOCK) private readonly clock: EngineClock,
  ) {
    this.lookups = new MicroBatcher(async (contactIds) => {
      const rows = await this.runs.goals.endableByEventOf([...new Set(contactIds)]);
      return waitingByContact(contactIds, rows);
    });
  }

  /**
   * An event about the contact (not a replay): ends the waits it ends, converts the goals it meets;
   * how many. `contactOf`: the contact for goals when the event carries none (message.*).
   */
  async onEvent(contactId: string, eventFacts: EvaluationFacts, contactOf?: ContactLookup): Promise<number> {
    const runs = await this.lookups.submit(contactId);
    const facts = await factsForGoals(runs, eventFacts, contactOf);
    let ended = 0;
    for (const run of runs) {
      if (run.status !== 'waiting') {
        if (await this.convert(run, facts)) ended++;
        continue;
      }
      const entry = cancellationBy(run, facts);
      if (!entry) continue;
      if (
        entry.step === 'resumed'
          ? await this.resume(run, entry)
          : await this.cancel(run.id, run.rule_id, entry)
      )
        ended++;
    }
    return ended;
  }

  /**
   * A wait with on-event got its event: the run is pending again and its job runs it now (the
   * engine's now, as the actions queue computes every delay: no delay, a job id of engine time).
   */
  private async resume(run: RunRow, entry: TimelineEntry) {
    if (!(await this.runs.resume(run.id, entry))) return false;
    const now = this.clock.now();
    await this.queue.wakeAt(
      { id: run.id, contactId: run.contact_id, correlationId: run.correlation_id, priority: run.priority },
      now,
      now,
    );
    this.logger.log(`rule ${run.rule_id}: waiting run ${run.id} resumed by ${entry.event?.type}`);
    return true;
  }

  /** A succeeded run in its goal window whose goal the event meets: the conversion, recorded once. */
  private async convert(run: RunRow, facts: EvaluationFacts) {
    const entry = conversionBy(run, facts);
    if (!entry || !(await this.runs.goals.recordConversion(run.id, entry))) return false;
    this.logger.log(`rule ${run.rule_id}: run ${run.id} converted: ${entry.detail}`);
    return true;
  }

  private async cancel(runId: string, ruleId: string, entry: TimelineEntry) {
    if (!(await cancelWaiting(this.dataSource, runId, entry))) return false;
    this.logger.log(`rule ${ruleId}: waiting run ${runId} cancelled: ${entry.reason}`);
    return true;
  }
}

async function cancelWaiting(db: Transactional, runId: string, entry: TimelineEntry): Promise<boolean> {
  if (!(await new RunsRepository(db).cancel(runId, entry, true))) return false;
  await new ActionResultsRepository(db).skipRemaining(runId, -1, entry.reason ?? 'cancelled');
  return true;
}

/**
 * Contacts that left the segment of a scheduled rule (in the sweep's transaction): their waiting
 * runs of it end, stamped at `now` (the engine clock).
 */
export async function cancelWaitsOfLeavers(
  db: Transactional,
  ruleId: string,
  contactIds: string[],
  now: Date,
): Promise<number> {
  if (contactIds.length === 0) return 0;
  const entry: TimelineEntry = {
    at: now.toISOString(),
    step: 'cancelled',
    reason: 'left_segment',
    detail: 'the contact left the segment of the rule',
  };
  let cancelled = 0;
  for (const id of await new RunsRepository(db).waitingOfRule(ruleId, contactIds))
    if (await cancelWaiting(db, id, entry)) cancelled++;
  return cancelled;
}

/** The waiting runs of each contact asked for (`contactIds[i]` gets `result[i]`), oldest first. Pure. */
export function waitingByContact(contactIds: readonly string[], rows: readonly RunRow[]): RunRow[][] {
  return contactIds.map((id) => rows.filter((run) => run.contact_id === id));
}

/**
 * Whether (and why) an event ends a waiting run: a `cancelled` entry, or a `resumed` one for a
 * wait with on-event. Pure.
 */
export function cancellationBy(run: RunRow, facts: EvaluationFacts): TimelineEntry | undefined {
  const at = facts.now.toISOString();
  const type = facts.event.type;
  if (type === 'contact.deleted')
    return { at, step: 'cancelled', reason: 'contact_deleted', detail: 'the contact was deleted' };
  const waiting = timelineProgress(run.timeline ?? []).waiting;
  if (run.timing?.goal && goalMet(run.timing.goal, run.timing.timezone, facts))
    return {
      at,
      step: 'cancelled',
      ...(waiting?.action !== undefined ? { action: waiting.action } : {}),
      reason: 'goal_reached',
      detail: `${type}${facts.event.id ? ` ${facts.event.id}` : ''} met the rule's goal`,
    };
  if (waiting?.for !== 'wait' || waiting.wait === undefined) return undefined;
  const wait = run.timing?.waits?.[waiting.wait];
  const until = wait?.until;
  const trigger = run.event_payload?.data as Record<string, unknown> | undefined;
  if (!until || !untilMatches(until, run.timing?.timezone, facts, trigger?.conversationId)) return undefined;
  if (wait.outcomes)
    return {
      at,
      step: 'resumed',
      for: 'wait',
      wait: waiting.wait,
      action: waiting.action,
      reason: 'until_event',
      event: {
        type,
        ...(facts.event.id ? { id: facts.event.id } : {}),
        data: facts.event.data,
      },
    };
  return {
    at,
    step: 'cancelled',
    action: waiting.action,
    reason: 'until_event',
    detail: `${type}${facts.event.id ? ` ${facts.event.id}` : ''} arrived during the wait`,
  };
}
