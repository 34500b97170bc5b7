import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { isAlive } from './job-state';
import { EVENTS_QUEUE, EventJobData, eventJobId } from './queues';

/** The one place that adds jobs to the events queue: job ids and options are decided here. */
@Injectable()
export class EventsQueue {
  constructor(@InjectQueue(EVENTS_QUEUE) private readonly queue: Queue<EventJobData>) {}

  async add(inboxEventId: string, correlationId: string = randomUUID()): Promise<void> {
    await this.queue.add('event', { inboxEventId, correlationId }, this.options(inboxEventId));
  }

  /** One round trip for a group commit's events (the intake). */
  async addMany(inboxEventIds: readonly string[]): Promise<void> {
    await this.queue.addBulk(
      inboxEventIds.map((id) => ({
        name: 'event',
        data: { inboxEventId: id, correlationId: randomUUID() },
        opts: this.options(id),
      })),
    );
  }

  /** Adds the event's job unless one is alive; true when it was added (reconciler). */
  async ensure(inboxEventId: string): Promise<boolean> {
    if (await isAlive(this.queue, eventJobId(inboxEventId))) return false;
    await this.add(inboxEventId);
    return true;
  }

  private options(inboxEventId: string) {
    return { jobId: eventJobId(inboxEventId) };
  }
}
