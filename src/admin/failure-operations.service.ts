// What an operator does about a failure: replay a stored event, run dead (or failed) actions
// again. One place, called by the admin API and the console alike.
import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ActionResultsRepository } from '../ledger/action-results.repository';
import { InboxEventsRepository } from '../ledger/inbox-events.repository';
import { RunsRepository } from '../ledger/runs.repository';
import { ActionsQueue } from '../queues/actions-queue.service';
import { EventsQueue } from '../queues/events-queue.service';

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
   * stored event is copied and evaluated as a new trigger. Undefined if no such event.
   */
  async replayEvent(id: string): Promise<{ replayedAs: string; reset: boolean } | undefined> {
    if (await this.inbox.resetFailed(id)) {
      // ensure, not add: the job that ended it failed may still be kept under the same id.
      await this.events.ensure(id);
      return { replayedAs: id, reset: true };
    }
    const copy = await this.inbox.insertReplayCopy(id, randomUUID());
    if (!copy) return undefined;
    await this.events.add(copy);
    return { replayedAs: copy, reset: false };
  }

  /** Dead (and, with includeFailed, failed) actions back to pending, their runs queued again. */
  async retryDead(opts: { runId?: string; includeFailed?: boolean } = {}): Promise<number> {
    const statuses = opts.includeFailed ? ['dead', 'failed'] : ['dead'];
    const runs = await this.db.transaction(async (tx) => {
      const reopened = await this.runs.in(tx).reopen(statuses, opts.runId ?? null);
      await this.actionResults.in(tx).reopen(
        reopened.map((r) => r.id),
        statuses,
      );
      return reopened;
    });
    // ensure, not add: a finished job of the same id would make the add a no-op.
    for (const run of runs) await this.actions.ensure(run);
    return runs.length;
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

export const RESOLUTIONS = ['sent', 'send-again', 'discard'] as const;
export type UncertainResolution = (typeof RESOLUTIONS)[number];
