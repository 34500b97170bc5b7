import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import { ENGINE_CLOCK, type EngineClock } from '../config/engine-clock';
import { isAlive } from './job-state';
import { ACTIONS_QUEUE, ActionJobData, actionJobId, actionJobOptions, wakeJobId } from './queue-jobs';

/** A run to execute: what the action job carries. */
export interface RunToQueue {
  id: string;
  contactId: string;
  correlationId?: string | null;
  priority: ActionJobData['priority'];
  /** A waiting run: its job wakes it at this time (a BullMQ delayed job, durable in Redis). */
  waitingUntil?: Date | null;
}

/** The one place that adds jobs to the actions queue: job ids, attempts and backoff are decided here. */
@Injectable()
export class ActionsQueue {
  constructor(
    @InjectQueue(ACTIONS_QUEUE) private readonly queue: Queue<ActionJobData>,
    // Wake times are engine times (waiting_until): the delay is their distance from the engine's now.
    @Inject(ENGINE_CLOCK) private readonly clock: EngineClock,
  ) {}

  /** `delayMs`: a retry handed over by a failed inline attempt waits like a job's first backoff. */
  async add(run: RunToQueue, delayMs = 0): Promise<void> {
    if (run.waitingUntil) return this.wakeAt(run, run.waitingUntil);
    await this.queue.add('run', jobData(run), {
      ...actionJobOptions(run.id),
      ...(delayMs ? { delay: delayMs } : {}),
    });
  }

  /**
   * Wakes a waiting run at `at` (an engine time): a delayed job, so a restart or another worker
   * still fires it. `now` is the engine time the caller decided at; the delay is a real duration.
   */
  async wakeAt(run: RunToQueue, at: Date, now = this.clock.now()): Promise<void> {
    await this.queue.add('run', jobData(run), {
      ...actionJobOptions(run.id),
      jobId: wakeJobId(run.id, at),
      delay: Math.max(0, at.getTime() - now.getTime()),
    });
  }

  async addMany(runs: readonly RunToQueue[], delayMs = 0): Promise<void> {
    if (runs.length === 0) return;
    await Promise.all(runs.map((run) => this.add(run, delayMs)));
  }

  /** Adds the run's job unless one is alive; true when it was added (reconciler). */
  async ensure(run: RunToQueue): Promise<boolean> {
    const jobId = run.waitingUntil ? wakeJobId(run.id, run.waitingUntil) : actionJobId(run.id);
    if (await isAlive(this.queue, jobId)) return false;
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
