// What an operator does about a failure: replay a stored event, run dead (or failed) actions
// again. One place, called by the admin API and the console alike.
import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ACTION_DEFINITIONS, ACTION_TYPES, actionDefinition } from '../../language/catalogue/catalogue';
import { retryRefusal } from '../../language/catalogue/write-verdict';
import { ActionResultsRepository } from '../../persistence/ledger/action-results.repository';
import type { SentForTrigger } from '../../persistence/ledger/action-result-views.repository';
import { InboxEventsRepository } from '../../persistence/ledger/inbox-events.repository';
import { RunsRepository } from '../../persistence/ledger/runs.repository';
import { ActionsQueue } from '../../runtime/queues/actions-queue.service';
import { EventsQueue } from '../../runtime/queues/events-queue.service';

@Injectable()
export class FailureOperationsService {
  constructor(
    private readonly db: DataSource,
    private readonly inbox: InboxEventsRepository,
    private readonly runs: RunsRepository,
    private readonly actionResults: ActionResultsRepository,
    private readonly events: EventsQueue,
    private readonly actions: ActionsQueue,
  ) {}

  /**
   * A failed event goes back to pending with its attempts reset and is processed again; any other
   * stored event is copied and evaluated as a new trigger, whose runs skip the messages already
   * sent for the original (`already_sent_for_trigger`) unless `force`. Undefined if no such event.
   */
  async replayEvent(
    id: string,
    opts: { force?: boolean } = {},
  ): Promise<{ replayedAs: string; reset: boolean; force: boolean } | undefined> {
    const force = opts.force === true;
    if (await this.inbox.resetFailed(id)) {
      // ensure, not add: the job that ended it failed may still be kept under the same id.
      await this.events.ensure(id);
      return { replayedAs: id, reset: true, force };
    }
    const copy = await this.inbox.insertReplayCopy(id, randomUUID(), force);
    if (!copy) return undefined;
    await this.events.add(copy);
    return { replayedAs: copy, reset: false, force };
  }

  /**
   * The customer messages sent, or maybe sent (uncertain, running), for an event: what a replay
   * skips and a forced one sends again.
   */
  messagesSentFor(eventId: string): Promise<SentForTrigger[]> {
    const types = ACTION_DEFINITIONS.filter((d) => d.repeat === 'at-most-once').map((d) => d.type);
    return this.actionResults.views.sentOfTrigger(`event:${eventId}`, types);
  }

  /**
   * Dead (and, with includeFailed, failed) actions back to pending, their runs queued again: every
   * such run, or only those of `runIds` (the ones an operator confirmed). A run holding an
   * at-most-once write that may have been applied (retryRefusal, write-verdict.ts) is refused and
   * listed instead: the engine never sends a customer message twice on its own.
   */
  async retryDead(opts: RetryDeadOptions = {}): Promise<RetryDeadResult> {
    const statuses = opts.includeFailed ? ['dead', 'failed'] : ['dead'];
    const runIds = opts.runIds ?? (opts.runId ? [opts.runId] : null);
    const { runs, refused } = await this.db.transaction(async (tx) => {
      const candidates = await this.actionResults.in(tx).views.retryCandidates(statuses, runIds);
      const refused = candidates.flatMap((c) => {
        const reason = retryRefusal({
          ...c,
          atMostOnce:
            ACTION_TYPES.includes(c.type as never) && actionDefinition(c.type).repeat === 'at-most-once',
        });
        return reason ? [{ runId: c.runId, actionId: c.id, reason }] : [];
      });
      const reopened = await this.runs.in(tx).reopen(
        statuses,
        runIds,
        refused.map((r) => r.runId),
      );
      await this.actionResults.in(tx).reopen(
        reopened.map((r) => r.id),
        statuses,
      );
      return { runs: reopened, refused };
    });
    // ensure, not add: a finished job of the same id would make the add a no-op.
    for (const run of runs) await this.actions.ensure(run);
    return { retried: runs.length, refused };
  }

  /**
   * An operator's decision on an uncertain message (never sent twice by the engine itself):
   * `sent` records it as sent and `send-again` sends it once more, both continuing the run;
   * `discard` drops it and ends the run failed. Undefined when the action is not uncertain.
   */
  async resolveUncertain(
    id: string,
    resolution: UncertainResolution,
  ): Promise<{ runId: string; continued: boolean } | undefined> {
    const run = await this.db.transaction(async (tx) => {
      const decided = await this.actionResults.in(tx).resolveUncertain(id, resolution);
      if (!decided) return undefined;
      if (resolution === 'discard') {
        await this.runs.in(tx).finish(decided.runId, 'failed');
        return { id: decided.runId, queued: false };
      }
      const reopened = await this.runs.in(tx).reopenOne(decided.runId);
      return reopened ? { ...reopened, queued: true } : undefined;
    });
    if (!run) return undefined;
    if ('contactId' in run) await this.actions.ensure(run);
    return { runId: run.id, continued: run.queued };
  }
}

export interface RetryDeadOptions {
  /** One run (admin API). */
  runId?: string;
  /** The runs an operator confirmed (console, admin API); absent: every dead run. */
  runIds?: string[];
  includeFailed?: boolean;
}

export interface RetryDeadResult {
  retried: number;
  /** Actions left as they are: their write may have reached the customer (resolve them instead). */
  refused: { runId: string; actionId: string; reason: string }[];
}

export const RESOLUTIONS = ['sent', 'send-again', 'discard'] as const;
export type UncertainResolution = (typeof RESOLUTIONS)[number];
