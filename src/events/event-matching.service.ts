import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ContactMirrorService } from '../contacts/contact-mirror.service';
import { CrmGateway } from '../crm/crm-gateway.service';
import type { Contact } from '../crm/crm-types';
import { createRun, PendingRun } from '../ledger/create-run';
import { InboxEventRow, InboxEventsRepository, REPLAY_KEY_PREFIX } from '../ledger/inbox-events.repository';
import type { CompiledRuleSet } from '../matching/compiled-rule-set';
import { EngineMetrics } from '../ops/engine-metrics';
import { ActionsQueue } from '../queues/actions-queue.service';
import type { EvaluationFacts, RuleEvaluation } from '../rules/rule-types';
import { RuleSetService } from '../rules/rule-set.service';
import { WaitCancellationService } from '../timing/wait-cancellation.service';
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
    private readonly waits: WaitCancellationService,
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
    // Whatever rules listen to it, the event may end waiting runs (`until`, a deleted contact).
    if (row.contact_id && !event.replay) await this.waits.onEvent(row.contact_id, eventFacts(event, new Date()));
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
    const inbox = this.inbox.in(tx);
    if (!(await inbox.lockPending(row.id))) return [];
    const pending: PendingRun[] = [];
    for (const evaluation of evaluations) {
      const rule = ruleSet.rule(evaluation.ruleId);
      if (!rule) continue;
      const run = await createRun(tx, {
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
      });
      this.metrics.runs.inc({ status: run.status, rule: rule.id });
      if (run.status === 'pending') pending.push(run);
    }
    await inbox.markProcessed(row.id);
    return pending;
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
