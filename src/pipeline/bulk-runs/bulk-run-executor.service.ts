// The job of a confirmed bulk run (bulk-run.processor.ts): its runs created in chunks through the
// same admission as every run (admit-bulk-entries.ts), at bulk priority, with the trigger
// `bulk:<id>`: a retried or resumed job finds the runs it already made (UQ_runs_trigger_rule_contact)
// and makes none twice. Each chunk commits, then its progress; pending runs go to the actions queue.
import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RuleSetService } from '../../runtime/rule-set/rule-set.service';
import { RuleControlsService } from '../../runtime/rule-controls/rule-controls.service';
import { ActionsQueue } from '../../runtime/queues/actions-queue.service';
import { BulkRunsRepository } from '../../persistence/ledger/bulk-runs.repository';
import { admitBulkEntries, type BulkEntry } from '../admission/admit-bulk-entries';
import { BULK_EVENT_TYPE, BulkRunPreviewService } from './bulk-run-preview.service';
import { bulkTriggerKey } from './bulk-runs.service';

/** Runs created per transaction: a crash loses at most one chunk's work, which the retry redoes. */
const CHUNK = 100;

@Injectable()
export class BulkRunExecutor {
  private readonly logger = new Logger(BulkRunExecutor.name);
  private readonly repo: BulkRunsRepository;

  constructor(
    private readonly db: DataSource,
    private readonly rules: RuleSetService,
    private readonly controls: RuleControlsService,
    private readonly preview: BulkRunPreviewService,
    private readonly actions: ActionsQueue,
  ) {
    this.repo = new BulkRunsRepository(db);
  }

  /** The job: the runs of a confirmed bulk run, chunk by chunk, resumable. */
  async execute(id: string): Promise<{ created: number }> {
    const run = await this.repo.find(id);
    if (!run || run.state !== 'running') return { created: 0 };
    const set = await this.rules.loaded();
    const rule = set.rule(run.ruleId);
    if (!rule || rule.version !== run.ruleVersion) {
      await this.repo.finish(
        id,
        'failed',
        `rule ${run.ruleId} changed or was removed after the confirmation`,
      );
      return { created: 0 };
    }
    let gone = 0;
    // Chunks before runs_created are done: each chunk commits, then its count.
    for (
      let from = run.runsCreated - (run.runsCreated % CHUNK);
      from < run.contactIds.length;
      from += CHUNK
    ) {
      const ids = run.contactIds.slice(from, from + CHUNK);
      const contacts = await this.preview.contacts(ids);
      gone += ids.length - contacts.size;
      const entries: BulkEntry[] = [];
      for (const contactId of ids) {
        const contact = contacts.get(contactId);
        if (contact)
          entries.push({
            contactId,
            contact: contact as unknown as Record<string, unknown>,
            evaluation: await this.preview.evaluate(set, rule, contact),
          });
      }
      const created = await this.db.transaction((tx) =>
        admitBulkEntries(
          tx,
          {
            rule,
            ruleSetVersion: set.version,
            ...(set.commit ? { rulesCommit: set.commit } : {}),
            triggerKey: bulkTriggerKey(id),
            triggerAt: run.createdAt,
            eventType: BULK_EVENT_TYPE,
            control: { paused: this.controls.isPaused(rule.id), mode: this.controls.modeOf(rule) },
            correlationId: `bulk-${id}`,
          },
          entries,
        ),
      );
      await this.actions.addMany(
        created
          .filter((r) => r.status === 'pending')
          .map((r) => ({
            id: r.id,
            contactId: r.contactId,
            correlationId: `bulk-${id}`,
            priority: 'bulk' as const,
          })),
      );
      await this.repo.progress(id, Math.min(from + CHUNK, run.contactIds.length));
    }
    await this.repo.finish(
      id,
      'done',
      gone ? `${gone} contact(s) left the mirror before their run was created` : null,
    );
    this.logger.log(`bulk run ${id} of ${rule.id}: ${run.contactIds.length - gone} runs created`);
    return { created: run.contactIds.length - gone };
  }
}
