// Bulk runs (issue 34, goal 5): a rule run for many contacts at once, never before an operator has
// seen who and what it costs. Created previewed (a manual list) or prepared on activation (a
// rule's `backfill: true`), confirmed or cancelled once (conditional updates), then executed by one
// BullMQ job (bulk-run-executor.service.ts) that creates the runs through admission.
import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isUuid } from '@crm-rules/crm-contract';
import { RuleSetService } from '../../runtime/rule-set/rule-set.service';
import { contactOnlyBlocker } from '../../language/rules/checks/check-backfill';
import type { CompiledRuleSet } from '../../language/matching/compiled-rule-set';
import type { RuleDefinition } from '../../language/rules/format/rule-types';
import { BulkRunsRepository, type BulkRunRow } from '../../persistence/ledger/bulk-runs.repository';
import { BulkRunsQueue } from './bulk-runs-queue.service';
import { SegmentMembershipsRepository } from '../segments/sweeps/segment-memberships.repository';
import { BULK_RUN_MAX_CONTACTS, BulkRunPreviewService } from './bulk-run-preview.service';

/** A backfill left `preparing` this long by a process that died is prepared again by the next one. */
export const STALE_PREPARING_MS = 5 * 60_000;

export interface BulkRunRefusal {
  status: 400 | 404 | 409;
  code: string;
  message: string;
}

export type BulkRunAnswer = { ok: true; bulkRun: BulkRunRow } | { ok: false; refusal: BulkRunRefusal };

export const bulkTriggerKey = (bulkRunId: string) => `bulk:${bulkRunId}`;

@Injectable()
export class BulkRunsService {
  private readonly logger = new Logger(BulkRunsService.name);
  private readonly repo: BulkRunsRepository;

  constructor(
    private readonly db: DataSource,
    private readonly rules: RuleSetService,
    private readonly preview: BulkRunPreviewService,
    private readonly queue: BulkRunsQueue,
  ) {
    this.repo = new BulkRunsRepository(db);
  }

  get repository(): BulkRunsRepository {
    return this.repo;
  }

  /** A manual bulk run for a list of contacts, previewed: nothing runs before a confirmation. */
  async createForList(ruleId: string, contactIds: unknown, by: string): Promise<BulkRunAnswer> {
    if (
      !Array.isArray(contactIds) ||
      contactIds.length === 0 ||
      !contactIds.every((id) => typeof id === 'string' && isUuid(id))
    )
      return refuse(400, 'invalid_contacts', 'contactIds must be a non-empty list of contact uuids');
    if (contactIds.length > BULK_RUN_MAX_CONTACTS)
      return refuse(400, 'too_many_contacts', `at most ${BULK_RUN_MAX_CONTACTS} contacts in one bulk run`);
    const set = await this.rules.loaded();
    const rule = set.rule(ruleId);
    const refused = bulkRefusal(rule, ruleId);
    if (refused) return { ok: false, refusal: refused };
    const ids = (contactIds as string[]).map((id) => id.toLowerCase());
    const preview = await this.preview.ofList(set, rule!, ids);
    const bulkRun = await this.repo.insertPreviewed(
      {
        ruleId: rule!.id,
        ruleVersion: rule!.version,
        rulesCommit: set.commit ?? null,
        source: 'list',
        sourceDetail: null,
        createdBy: by,
      },
      preview,
    );
    this.logger.log(
      `bulk run ${bulkRun.id} of ${rule!.id} by ${by}: ${preview.contactIds.length} of ${ids.length} contacts match; waiting for a confirmation`,
    );
    return { ok: true, bulkRun };
  }

  /**
   * A manual bulk run for the members of a segment rule's segment (its `segment.name` or its id),
   * as its last sweep stored them; previewed like a list.
   */
  async createForSegment(ruleId: string, segment: unknown, by: string): Promise<BulkRunAnswer> {
    if (typeof segment !== 'string' || !segment.trim())
      return refuse(
        400,
        'invalid_segment',
        "segment must be the name of a segment rule's segment, or its rule id",
      );
    const set = await this.rules.loaded();
    const rule = set.rule(ruleId);
    const refused = bulkRefusal(rule, ruleId);
    if (refused) return { ok: false, refusal: refused };
    const name = segment.trim();
    const owner = set
      .scheduledRules()
      .find((r) => r.id === name || (r.trigger.kind === 'schedule' && r.trigger.segment.name === name));
    if (!owner)
      return refuse(404, 'unknown_segment', `no segment rule named "${name}" (segment.name or rule id)`);
    const members = await new SegmentMembershipsRepository(this.db).memberIds(
      owner.id,
      BULK_RUN_MAX_CONTACTS + 1,
    );
    const preview = await this.preview.ofList(set, rule!, members.slice(0, BULK_RUN_MAX_CONTACTS));
    const notes = [
      members.length === 0
        ? `segment "${name}" has no stored members: its rule ${owner.id} has not swept yet (POST /admin/rules/${owner.id}/sweep)`
        : null,
      members.length > BULK_RUN_MAX_CONTACTS
        ? `the segment has more than ${BULK_RUN_MAX_CONTACTS} members: the first ${BULK_RUN_MAX_CONTACTS} by id are evaluated`
        : null,
      preview.detail,
    ].filter((n): n is string => n !== null);
    const bulkRun = await this.repo.insertPreviewed(
      {
        ruleId: rule!.id,
        ruleVersion: rule!.version,
        rulesCommit: set.commit ?? null,
        source: 'segment',
        sourceDetail: name,
        createdBy: by,
      },
      { ...preview, detail: notes.length ? notes.join('; ') : null },
    );
    this.logger.log(
      `bulk run ${bulkRun.id} of ${rule!.id} for segment ${name} by ${by}: ${preview.contactIds.length} of ${members.length} members match; waiting for a confirmation`,
    );
    return { ok: true, bulkRun };
  }

  /**
   * The backfill of each rule of the set that asks for one, once per rule version: claimed by the
   * first process (or taken over from a dead one), previewed from the mirror, left for an operator.
   */
  async prepareBackfills(set: CompiledRuleSet): Promise<void> {
    for (const rule of set.rules.filter((r) => r.backfill && r.enabled)) {
      const id = await this.repo.claimBackfill(
        {
          ruleId: rule.id,
          ruleVersion: rule.version,
          rulesCommit: set.commit ?? null,
          createdBy: 'activation',
        },
        STALE_PREPARING_MS,
      );
      if (!id) continue;
      try {
        const preview = await this.preview.ofMirror(set, rule);
        await this.repo.previewed(id, preview);
        this.logger.log(
          `backfill ${id} of ${rule.id}@${rule.version}: ${preview.contactIds.length} of ${preview.evaluated} mirrored contacts match; waiting for a confirmation (console or crm-rules bulk confirm)`,
        );
      } catch (err) {
        await this.repo.finish(id, 'failed', `preview failed: ${(err as Error).message}`);
        this.logger.error(`backfill ${id} of ${rule.id}: preview failed: ${(err as Error).message}`);
      }
    }
  }

  /** pending_confirmation → running, then its job; only for the rule version it previewed. */
  async confirm(id: string, by: string): Promise<BulkRunAnswer> {
    const found = await this.findOrRefuse(id);
    if (!found.ok) return found;
    const rule = (await this.rules.loaded()).rule(found.bulkRun.ruleId);
    if (!rule || rule.version !== found.bulkRun.ruleVersion)
      return refuse(
        409,
        'rule_changed',
        `rule ${found.bulkRun.ruleId} changed or was removed since this preview (${found.bulkRun.ruleVersion}): cancel it and preview again`,
      );
    const decided = await this.repo.decide(id, 'running', by);
    if (!decided) return this.notWaiting(id);
    // Committed first, queued second: a lost add is queued again by the next start (resumeRunning).
    await this.queue
      .add(id)
      .catch((err: Error) =>
        this.logger.warn(
          `bulk run ${id} confirmed but not queued (resumed at the next start): ${err.message}`,
        ),
      );
    this.logger.log(
      `bulk run ${id} of ${decided.ruleId} confirmed by ${by}: ${decided.contactIds.length} runs to create`,
    );
    return { ok: true, bulkRun: decided };
  }

  async cancel(id: string, by: string): Promise<BulkRunAnswer> {
    const found = await this.findOrRefuse(id);
    if (!found.ok) return found;
    const decided = await this.repo.decide(id, 'cancelled', by);
    if (!decided) return this.notWaiting(id);
    this.logger.log(`bulk run ${id} of ${decided.ruleId} cancelled by ${by}`);
    return { ok: true, bulkRun: decided };
  }

  /** Confirmed bulk runs left running (their job lost with Redis, or a crash): queued again (same job id). */
  async resumeRunning(): Promise<void> {
    for (const id of await this.repo.runningIds()) await this.queue.add(id);
  }

  private async findOrRefuse(id: string): Promise<BulkRunAnswer> {
    if (!isUuid(id)) return refuse(400, 'invalid_id', 'a bulk run id is a uuid');
    const bulkRun = await this.repo.find(id);
    return bulkRun ? { ok: true, bulkRun } : refuse(404, 'unknown_bulk_run', `no bulk run ${id}`);
  }

  private async notWaiting(id: string): Promise<BulkRunAnswer> {
    const now = await this.repo.find(id);
    return refuse(
      409,
      'not_pending',
      `bulk run ${id} is ${now?.state ?? 'gone'}: only a bulk run waiting for a confirmation can be confirmed or cancelled`,
    );
  }
}

function refuse(status: BulkRunRefusal['status'], code: string, message: string): BulkRunAnswer {
  return { ok: false, refusal: { status, code, message } };
}

/** Why the rule cannot have a bulk run (unknown, disabled, or it needs an event to be judged). */
export function bulkRefusal(rule: RuleDefinition | undefined, ruleId: string): BulkRunRefusal | undefined {
  if (!rule) return { status: 404, code: 'unknown_rule', message: `no rule "${ruleId}" in the running set` };
  if (!rule.enabled)
    return { status: 409, code: 'rule_disabled', message: `"${rule.id}" is disabled (enabled: false)` };
  const blocker = contactOnlyBlocker(rule.trigger, rule.conditions);
  return blocker
    ? { status: 409, code: 'needs_event', message: `"${rule.id}" cannot run in bulk: ${blocker}` }
    : undefined;
}
