import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { Queue } from 'bullmq';
import { DataSource, EntityManager } from 'typeorm';
import { CrmGateway } from '../crm/crm-gateway.service';
import type { Contact } from '../crm/crm-types';
import { EngineMetrics } from '../ops/engine-metrics';
import { ACTIONS_QUEUE, ActionJobData, actionJobOptions } from '../queues/queues';
import type { CompiledRuleSet } from '../matching/compiled-rule-set';
import type { EvaluationFacts, RuleEvaluation } from '../rules/rule-types';
import { RuleSetService } from '../rules/rule-set.service';
import { createRun, PendingRun } from '../actions/run-ledger';
import { ContactMirrorService } from '../contacts/contact-mirror.service';

/** Events whose contact is the payload itself. */
const CONTACT_EVENTS = /^contact\./;

interface InboxRow {
  id: string;
  type: string;
  payload: { id?: string; type: string; createdAt?: string; data: Record<string, unknown> };
  status: string;
  contact_id: string | null;
  event_key: string;
}

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
    @InjectQueue(ACTIONS_QUEUE) private readonly actions: Queue<ActionJobData>,
  ) {}

  async process(inboxEventId: string, correlationId: string): Promise<void> {
    const [row]: InboxRow[] = await this.dataSource.query(
      `SELECT id, type, payload, status, contact_id, event_key FROM inbox_events WHERE id = $1`,
      [inboxEventId],
    );
    if (!row || row.status !== 'pending') return;
    if (CONTACT_EVENTS.test(row.type) && !row.event_key.startsWith('replay:')) {
      // Keep the mirror current (segments, freshest state for guards) whatever the rules listen to.
      await this.mirror.applyEvent(row.type, row.payload.data as unknown as Contact);
    }
    const ruleSet = this.rules.current();
    const listening = ruleSet?.rulesForEvent(row.type) ?? [];
    if (!ruleSet || listening.length === 0 || !row.contact_id) {
      // Unknown kinds and kinds no rule listens to are stored and acknowledged, nothing more.
      await this.markProcessed(this.dataSource.manager, row.id);
      return;
    }
    const facts = await this.factsFor(row);
    const evaluations = await ruleSet.evaluateEvent(facts);
    const pending = await this.dataSource.transaction((tx) =>
      this.recordRuns(tx, row, ruleSet, evaluations, facts, correlationId),
    );
    for (const run of pending) {
      await this.actions.add(
        'run',
        { runId: run.id, contactId: run.contactId, correlationId, priority: 'interactive' },
        actionJobOptions(run.id),
      );
    }
    if (pending.length)
      this.logger.log(`event ${row.type} ${row.id}: ${pending.length} run(s) queued [${correlationId}]`);
  }

  private async factsFor(row: InboxRow): Promise<EvaluationFacts> {
    const event = row.payload;
    const facts: EvaluationFacts = { event, now: new Date() };
    if (CONTACT_EVENTS.test(row.type)) {
      facts.contact = event.data;
    } else {
      facts.message = event.data;
      // One read per event: the guards of every action need the contact's current state (assignee,
      // blocked), so it is read even when no condition names it. Only called when a rule listens.
      const contact: Contact = await this.gateway.getContact(row.contact_id!, { priority: 'interactive' });
      facts.contact = contact as unknown as Record<string, unknown>;
    }
    return facts;
  }

  private async recordRuns(
    tx: EntityManager,
    row: InboxRow,
    ruleSet: CompiledRuleSet,
    evaluations: RuleEvaluation[],
    facts: EvaluationFacts,
    correlationId: string,
  ): Promise<PendingRun[]> {
    // Lock the inbox row: a reconciler copy of this job waits here, then sees `processed`.
    const [locked] = await tx.query(`SELECT status FROM inbox_events WHERE id = $1 FOR UPDATE`, [row.id]);
    if (!locked || locked.status !== 'pending') return [];
    const pending: PendingRun[] = [];
    for (const evaluation of evaluations) {
      const rule = ruleSet.rule(evaluation.ruleId);
      if (!rule) continue;
      const run = await createRun(tx, {
        triggerKey: `event:${row.id}`,
        inboxEventId: row.id,
        eventType: row.type,
        // An operator's replay is deliberate: loop protection does not hold it back.
        replay: row.event_key.startsWith('replay:'),
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
    await this.markProcessed(tx, row.id);
    return pending;
  }

  private async markProcessed(manager: EntityManager, id: string): Promise<void> {
    await manager.query(`UPDATE inbox_events SET status = 'processed', processed_at = now() WHERE id = $1`, [
      id,
    ]);
  }
}
