// Group commit for any write many concurrent callers make: what they submit in one event-loop turn
// (and while the previous batch is being written) goes to the database as one batch. Each caller
// still gets its own result, or its own error: when a batch fails, its items are written one by
// one, so an item Postgres refuses fails alone and its neighbours succeed.
// The intake's InboxBatcher (src/intake/inbox-batcher.ts) is the same idea, with its own fallback.

interface Waiting<In, Out> {
  item: In;
  resolve: (out: Out) => void;
  reject: (err: unknown) => void;
}

export class MicroBatcher<In, Out> {
  private queue: Waiting<In, Out>[] = [];
  private scheduled = false;
  private writing = false;

  /**
   * `write` gets the items of one batch and returns one result per item, in order.
   * `maxBatch` bounds a statement's size (and a failed batch's fallback).
   */
  constructor(
    private readonly write: (items: In[]) => Promise<Out[]>,
    private readonly maxBatch = 100,
  ) {}

  submit(item: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.writing || this.scheduled) return;
      this.scheduled = true;
      // setImmediate: collect what arrives in the same turn, no timer delay.
      setImmediate(() => {
        this.scheduled = false;
        void this.drain();
      });
    });
  }

  /** One batch at a time: what arrives meanwhile forms the next batch (a larger one under load). */
  private async drain(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, this.maxBatch);
        await this.writeBatch(batch);
      }
    } finally {
      this.writing = false;
    }
  }

  private async writeBatch(batch: Waiting<In, Out>[]): Promise<void> {
    try {
      const results = await this.write(batch.map((w) => w.item));
      batch.forEach((w, i) => w.resolve(results[i]));
    } catch (err) {
      if (batch.length === 1) return batch[0].reject(err);
      for (const w of batch) await this.writeBatch([w]);
    }
  }
}
