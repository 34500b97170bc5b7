import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import { isAlive } from './job-state';
import { ACTIONS_QUEUE, ActionJobData, actionJobId, actionJobOptions } from './queues';

/** A run to execute: what the action job carries. */
export interface RunToQueue {
  id: string;
  contactId: string;
  correlationId?: string | null;
  priority: ActionJobData['priority'];
}

/** The one place that adds jobs to the actions queue: job ids, attempts and backoff are decided here. */
@Injectable()
export class ActionsQueue {
  constructor(@InjectQueue(ACTIONS_QUEUE) private readonly queue: Queue<ActionJobData>) {}

  async add(run: RunToQueue): Promise<void> {
    await this.queue.add('run', jobData(run), actionJobOptions(run.id));
  }

  async addMany(runs: readonly RunToQueue[]): Promise<void> {
    if (runs.length === 0) return;
    await Promise.all(runs.map((run) => this.add(run)));
  }

  /** Adds the run's job unless one is alive; true when it was added (reconciler). */
  async ensure(run: RunToQueue): Promise<boolean> {
    if (await isAlive(this.queue, actionJobId(run.id))) return false;
    await this.add(run);
    return true;
  }
}

function jobData(run: RunToQueue): ActionJobData {
  return {
    runId: run.id,
    contactId: run.contactId,
    correlationId: run.correlationId ?? undefined,
    priority: run.priority,
  };
}
