import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ContactMirrorService } from '../contacts/contact-mirror.service';
import { CrmGateway } from '../crm/crm-gateway.service';
import type { Contact } from '../crm/crm-types';
import { createRun, createUnmatchedRuns, type NewRun, type PendingRun } from '../ledger/create-run';
import { InboxEventRow, InboxEventsRepository, REPLAY_KEY_PREFIX } from '../ledger/inbox-events.repository';
import type { CompiledRuleSet } from '../matching/compiled-rule-set';
import { EngineMetrics } from '../ops/engine-metrics';
import { ActionsQueue } from '../queues/actions-queue.service';
import type { EvaluationFacts, RuleEvaluation } from '../rules/rule-types';
import { RuleSetService } from '../rules/rule-set.service';
import { eventFacts, planEvent, type StoredEvent } from './event-plan';

/**
 * Turns one stored event into runs: evaluates the rules listening to its kind against the
 * freshest contact state, and writes every run (matched or not, with its explain trace) plus the
 * event's "processed" mark in one transaction. Actions are enqueued after the commit.
 */
@Injectable()
export class EventMatchingService {
  private readonly logger = new Logger(EventMatchingService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly rules: RuleSetService,
    private readonly gateway: CrmGateway,
    private readonly metrics: EngineMetrics,
    private readonly mirror: ContactMirrorService,
    private readonly inbox: InboxEventsRepository,
    private readonly actions: ActionsQueue,
  ) {}

  async process(inboxEventId: string, correlationId: string): Promise<void> {
    const row = await this.inbox.find(inboxEventId);
    if (!row || row.status !== 'pending') return;
    const event = storedEvent(row);
    const ruleSet = this.rules.current();
    const plan = planEvent(event, ruleSet?.rulesForEvent(row.type).length ?? 0);
    if (plan.updateMirror) {
      await this.mirror.applyEvent(row.type, row.payload.data as unknown as Contact);
    }
    if (!ruleSet || !plan.match) {
      await this.inbox.markProcessed(row.id);
      return;
    }
    const facts = await this.factsFor(event, plan.contactFrom, row.contact_id!);
    const evaluations = await ruleSet.evaluateEvent(facts);
    const pending = await this.dataSource.transaction((tx) =>
      this.recordRuns(tx, row, ruleSet, evaluations, facts, correlationId),
    );
    await this.actions.addMany(pending.map((run) => ({ ...run, correlationId })));
    if (pending.length)
      this.logger.log(`event ${row.type} ${row.id}: ${pending.length} run(s) queued [${correlationId}]`);
  }

  private async factsFor(
    event: StoredEvent,
    contactFrom: 'payload' | 'crm',
    contactId: string,
  ): Promise<EvaluationFacts> {
    // One read per event, only when a rule listens: the guards need the contact's current state.
    const contact =
      contactFrom === 'crm'
        ? await this.gateway.getContact(contactId, { priority: 'interactive' })
        : undefined;
    return eventFacts(event, new Date(), contact as unknown as Record<string, unknown> | undefined);
  }

  private async recordRuns(
    tx: EntityManager,
    row: InboxEventRow,
    ruleSet: CompiledRuleSet,
    evaluations: RuleEvaluation[],
    facts: EvaluationFacts,
    correlationId: string,
  ): Promise<PendingRun[]> {
    // Claim first (lock + processed mark in one statement); the not-matched runs go in one more.
    if (!(await this.inbox.in(tx).claimPending(row.id))) return [];
    const runs = evaluations.flatMap((evaluation) => {
      const rule = ruleSet.rule(evaluation.ruleId);
      if (!rule) return [];
      const run: NewRun = {
        triggerKey: `event:${row.id}`,
        inboxEventId: row.id,
        eventType: row.type,
        // An operator's replay is deliberate: loop protection does not hold it back.
        replay: row.event_key.startsWith(REPLAY_KEY_PREFIX),
        priority: 'interactive',
        rule,
        ruleSetVersion: ruleSet.version,
        contactId: row.contact_id!,
        evaluation,
        contactSnapshot: facts.contact ?? null,
        correlationId,
      };
      return [run];
    });
    const unmatched = runs.filter((r) => !r.evaluation.matched);
    const matched = runs.filter((r) => r.evaluation.matched);
    const created = await createUnmatchedRuns(tx, unmatched);
    for (const run of matched) created.push(await createRun(tx, run));
    [...unmatched, ...matched].forEach((run, i) =>
      this.metrics.runs.inc({ status: created[i].status, rule: run.rule.id }),
    );
    return created.filter((run) => run.status === 'pending');
  }
}

function storedEvent(row: InboxEventRow): StoredEvent {
  return {
    type: row.type,
    replay: row.event_key.startsWith(REPLAY_KEY_PREFIX),
    contactId: row.contact_id,
    payload: row.payload,
  };
}
