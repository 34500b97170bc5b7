import type { Queue } from 'bullmq';

/**
 * Whether a job for this id is still alive (waiting, delayed, active...). A completed or failed one
 * is removed so that the same id can be added again: BullMQ ignores an add whose id exists.
 */
export async function isAlive(queue: Queue, jobId: string): Promise<boolean> {
  const job = await queue.getJob(jobId);
  if (!job) return false;
  const state = await job.getState();
  if (state === 'completed' || state === 'failed') {
    await job.remove().catch(() => undefined);
    return false;
  }
  return true;
}
