import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CrmDirectory } from '../crm/crm-directory.service';
import { UnknownNameError } from '../crm/directory-match';
import { CrmApiError } from '../crm/crm-errors';
import { CrmGateway } from '../crm/crm-gateway.service';
import type { Contact } from '../crm/crm-types';
import { ContactMirrorService } from '../contacts/contact-mirror.service';
import { contactLockKey, withAdvisoryLock } from '../db/advisory-lock';
import type { Queryable } from '../db/queryable';
import { ActionResultsRepository, type ActionRow } from '../ledger/action-results.repository';
import type { ActionStatus } from '../ledger/action-result.entity';
import { RunsRepository, type RunRow } from '../ledger/runs.repository';
import { EngineMetrics } from '../ops/engine-metrics';
import { RunTimingService } from '../timing/run-timing.service';
import type { RuleAction } from '../rules/rule-types';
import { applyActionLocally, guardAction } from './action-guards';
import { executeAction } from './action-executor';
import type { TriggerMessage } from './catalogue/action-definition';
import { resolveMemberId } from './catalogue/assign.action';
import { actionDefinition } from './catalogue/catalogue';
import { NoConversationError } from './catalogue/conversation-for';
import { MissingMessageError } from './catalogue/message-trigger';
import { resolveAction } from './resolve-action';
import { freshestContact, needsFreshRead, nextStep } from './run-steps';

interface ExecutionContext {
  contact: Contact;
  /** message.* runs: the message the rule answers. */
  message?: TriggerMessage;
}

/** The ledger as one run sees it: over the connection that holds the contact's lock. */
interface Ledger {
  conn: Queryable;
  runs: RunsRepository;
  actions: ActionResultsRepository;
}

export class ContactBusyError extends Error {}
/** A transient failure after the gateway's own retries: the job is retried later. */
export class TransientActionError extends Error {}

/**
 * Executes the pending runs of one contact in trigger order. A session advisory lock on the
 * contact makes "same contact in order, different contacts in parallel" hold across workers.
 */
@Injectable()
export class ActionRunnerService {
  private readonly logger = new Logger(ActionRunnerService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly runs: RunsRepository,
    private readonly actionResults: ActionResultsRepository,
    private readonly gateway: CrmGateway,
    private readonly directory: CrmDirectory,
    private readonly metrics: EngineMetrics,
    private readonly mirror: ContactMirrorService,
    private readonly timing: RunTimingService,
  ) {}

  /** Runs every unfinished run of the contact up to and including `runId`. */
  async runForContact(contactId: string, runId: string, finalAttempt: boolean): Promise<void> {
    const outcome = await withAdvisoryLock(
      this.dataSource,
      contactLockKey(contactId),
      false,
      async (conn) => {
        // The ledger writes go over the connection that holds the lock: one connection per busy contact.
        const ledger = this.ledgerOver(conn);
        // A job that wakes a waiting run: resume it (or cancel it) before working the contact's runs.
        await this.timing.wake(ledger, runId);
        for (const run of await ledger.runs.unfinishedUpTo(contactId, runId)) {
          await this.executeRun(ledger, run, finalAttempt && run.id === runId);
        }
      },
    );
    if (!outcome.acquired)
      throw new ContactBusyError(`contact ${contactId} is being worked on by another job`);
  }

  private ledgerOver(conn: Queryable): Ledger {
    return { conn, runs: this.runs.in(conn), actions: this.actionResults.in(conn) };
  }

  private async executeRun(ledger: Ledger, run: RunRow, finalAttempt: boolean): Promise<void> {
    await ledger.runs.markStatus(run.id, 'running');
    const actions = await ledger.actions.ofRun(run.id);
    // A row left `running` means a crash mid-call: read the contact again so guards see the write
    // if it happened (no_change), instead of repeating it.
    const contact = needsFreshRead(actions.map((a) => a.status))
      ? await this.readContact(run)
      : freshestContact(
          run.contact_snapshot as unknown as Contact,
          await this.mirror.find(run.contact_id, ledger.conn),
        );
    const ctx: ExecutionContext = { contact, message: messageOf(run) };
    for (const row of actions) {
      const step = nextStep(row.status);
      if (step === 'skip') continue;
      // Waits, windows and limits come before an action is first attempted (src/timing).
      const gate = step === 'execute' ? await this.timing.gate(ledger, run, row) : 'go';
      if (gate === 'stop') return;
      if (gate === 'skip') continue;
      const outcome =
        step === 'stop'
          ? (row.status as Extract<ActionStatus, 'failed' | 'dead'>)
          : await this.executeOne(ledger, run, row, ctx, finalAttempt);
      if (outcome !== 'next') {
        await ledger.actions.skipRemaining(run.id, row.action_index, 'previous_action_failed');
        await ledger.runs.finish(run.id, outcome);
        return;
      }
    }
    await ledger.runs.finish(run.id, 'succeeded');
  }

  private async executeOne(
    ledger: Ledger,
    run: RunRow,
    row: ActionRow,
    ctx: ExecutionContext,
    finalAttempt: boolean,
  ): Promise<'next' | 'failed' | 'dead'> {
    const action = row.action as RuleAction;
    const opts = { priority: run.priority, correlationId: run.correlation_id ?? undefined };
    const started = Date.now();
    try {
      const def = actionDefinition(action.type);
      const facts = {
        contact: ctx.contact,
        event: run.event_payload ?? undefined,
        message: ctx.message && run.event_payload?.data,
      };
      const resolved = await resolveAction(this.directory, action, facts);
      if (
        def.messaging &&
        'assignFirst' in action &&
        action.assignFirst &&
        !ctx.contact.assigneeId &&
        !ctx.contact.isBlocked
      ) {
        const memberId = await resolveMemberId(this.directory, action.assignFirst);
        ctx.contact =
          (await this.gateway.updateContact(ctx.contact.id, { assigneeId: memberId }, opts)) ?? ctx.contact;
      }
      const guard = guardAction(resolved, ctx.contact);
      if (!guard.proceed) {
        await ledger.actions.skip(row.id, guard.reason, guard.detail);
        this.metrics.actions.inc({ type: action.type, status: 'skipped', reason: guard.reason });
        return 'next';
      }
      await ledger.actions.markRunning(row.id);
      const after = await executeAction(resolved, { gateway: this.gateway, opts, ...ctx });
      ctx.contact = after ?? applyActionLocally(resolved, ctx.contact);
      // The CRM's answer is the freshest state there is: later runs' guards start from it.
      if (after) await this.mirror.applyEvent('contact.updated', after);
      await ledger.actions.succeed(row.id, Date.now() - started, null);
      this.metrics.actions.inc({ type: action.type, status: 'succeeded', reason: '' });
      this.logger.log(
        `rule ${run.rule_id}: ${action.type} on contact ${ctx.contact.id} succeeded [${run.correlation_id ?? '-'}]`,
      );
      return 'next';
    } catch (err) {
      return this.onError(ledger, run, row, err, Date.now() - started, finalAttempt);
    }
  }

  private async onError(
    ledger: Ledger,
    run: RunRow,
    row: ActionRow,
    err: unknown,
    durationMs: number,
    finalAttempt: boolean,
  ) {
    const type = (row.action as RuleAction).type;
    const done = actionDefinition(type).alreadyDone?.(err);
    if (done) {
      const requestId = err instanceof CrmApiError ? (err.requestId ?? null) : null;
      await ledger.actions.succeed(row.id, durationMs, requestId, done);
      return 'next' as const;
    }
    const permanent =
      (err instanceof CrmApiError && !err.retryable) ||
      err instanceof MissingMessageError ||
      err instanceof NoConversationError ||
      isUnknownName(err);
    const failure = describe(err);
    if (permanent || finalAttempt) {
      const status: 'failed' | 'dead' = permanent ? 'failed' : 'dead';
      await ledger.actions.fail(row.id, status, failure, durationMs);
      this.metrics.actions.inc({ type, status, reason: failure.code });
      this.logger.warn(
        `rule ${run.rule_id}: ${type} on contact ${run.contact_id} ${status}: ${failure.code} ${failure.requestId ?? ''}`,
      );
      return status;
    }
    await ledger.actions.fail(row.id, 'pending', failure, durationMs);
    throw new TransientActionError(`${type} on contact ${run.contact_id}: ${failure.code}`);
  }

  private async readContact(run: RunRow): Promise<Contact> {
    return this.gateway.getContact(run.contact_id, { priority: run.priority });
  }
}

function messageOf(run: RunRow): TriggerMessage | undefined {
  const data = run.event_payload?.data as Record<string, unknown> | undefined;
  if (!data || !String(run.event_payload?.type ?? '').startsWith('message.')) return undefined;
  return {
    id: String(data.id),
    conversationId: String(data.conversationId),
    messagePlatformId: String(data.messagePlatformId ?? data.id),
  };
}

function isUnknownName(err: unknown): err is UnknownNameError {
  return err instanceof UnknownNameError;
}

function describe(err: unknown): {
  code: string;
  message: string;
  status: number | null;
  requestId: string | null;
} {
  if (err instanceof CrmApiError) {
    return { code: err.code, message: err.message, status: err.status, requestId: err.requestId ?? null };
  }
  if (err instanceof MissingMessageError)
    return { code: 'no_message', message: err.message, status: null, requestId: null };
  if (err instanceof NoConversationError)
    return { code: 'no_conversation', message: err.message, status: null, requestId: null };
  if (isUnknownName(err))
    return { code: 'unknown_name', message: err.message, status: null, requestId: null };
  const e = err as { name?: string; message?: string };
  return {
    code: e?.name === 'CrmTransportError' ? 'transport_error' : 'internal_error',
    message: String(e?.message ?? err),
    status: null,
    requestId: null,
  };
}
