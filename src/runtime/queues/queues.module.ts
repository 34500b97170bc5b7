import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { ActionsQueue } from './actions-queue.service';
import { EventsQueue } from './events-queue.service';
import { ACTIONS_QUEUE, BULK_RUNS_QUEUE, EVENTS_QUEUE, SWEEPS_QUEUE } from './queue-jobs';

const defaultJobOptions = {
  // Completed jobs are dropped: the ledger in Postgres keeps the history.
  removeOnComplete: true,
  removeOnFail: 1000,
};

/**
 * Registers the queues once, with one enqueue service per queue (the sweeps queue's is
 * SweepQueueService, beside the sweeps; the bulk runs queue's BulkRunsQueue, beside the bulk runs). Modules that add jobs import this module.
 */
@Module({
  imports: [
    BullModule.registerQueue(
      {
        name: EVENTS_QUEUE,
        defaultJobOptions: {
          ...defaultJobOptions,
          attempts: 5,
          backoff: { type: 'exponential', delay: 500 },
        },
      },
      { name: ACTIONS_QUEUE, defaultJobOptions },
      {
        name: SWEEPS_QUEUE,
        defaultJobOptions: {
          ...defaultJobOptions,
          attempts: 3,
          backoff: { type: 'exponential', delay: 2000 },
        },
      },
      {
        name: BULK_RUNS_QUEUE,
        defaultJobOptions: {
          ...defaultJobOptions,
          attempts: 5,
          backoff: { type: 'exponential', delay: 2000 },
        },
      },
    ),
  ],
  providers: [EventsQueue, ActionsQueue],
  exports: [BullModule, EventsQueue, ActionsQueue],
})
export class QueuesModule {}
