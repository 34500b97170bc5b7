// Group commit for any write many concurrent callers make: what they submit in one event-loop turn
// (and while earlier batches are being written) goes to the database as one batch. Each caller
// still gets its own result, or its own error: when a batch fails, its items are written one by
// one, so an item Postgres refuses fails alone and its neighbours succeed.
// Adaptive: when idle an item is written on the next event-loop turn (no timer); under load at most
// `maxInFlight` batches are written at once and what arrives meanwhile waits for the next one, so
// batches grow with the load and the per-statement costs are shared by more callers.

interface Waiting<In, Out> {
  item: In;
  resolve: (out: Out) => void;
  reject: (err: unknown) => void;
}

export interface MicroBatcherOptions<In = unknown, Out = unknown> {
  /** Items per statement: bounds a statement's size (and a failed batch's fallback). */
  maxBatch?: number;
  /** Batches written at once (each holds a connection). */
  maxInFlight?: number;
  /** Whether a failed batch is written again item by item; otherwise every item gets the error. */
  splitOnError?: (err: unknown) => boolean;
  /**
   * How an item of a failed batch is written again on its own (default: a batch of one through
   * `write`): a writer whose batch path differs from its reference path for one item uses the latter.
   */
  writeOne?: (item: In) => Promise<Out>;
}

export class MicroBatcher<In, Out> {
  private queue: Waiting<In, Out>[] = [];
  private scheduled = false;
  private inFlight = 0;
  private readonly maxBatch: number;
  private readonly maxInFlight: number;
  private readonly splitOnError: (err: unknown) => boolean;
  private readonly writeOne: (item: In) => Promise<Out>;

  /** `write` gets the items of one batch and returns one result per item, in order. */
  constructor(
    private readonly write: (items: In[]) => Promise<Out[]>,
    options: MicroBatcherOptions<In, Out> = {},
  ) {
    this.maxBatch = options.maxBatch ?? 100;
    this.maxInFlight = options.maxInFlight ?? 1;
    this.splitOnError = options.splitOnError ?? (() => true);
    this.writeOne = options.writeOne ?? (async (item) => (await this.write([item]))[0]);
  }

  submit(item: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** setImmediate: collect what arrives in the same turn, no timer delay. */
  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.maxInFlight || !this.queue.length) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    while (this.queue.length && this.inFlight < this.maxInFlight) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.inFlight++;
      void this.writeBatch(batch).finally(() => {
        this.inFlight--;
        this.schedule();
      });
    }
  }

  private async writeBatch(batch: Waiting<In, Out>[]): Promise<void> {
    try {
      const results = await this.write(batch.map((w) => w.item));
      batch.forEach((w, i) => w.resolve(results[i]));
    } catch (err) {
      if (batch.length === 1 || !this.splitOnError(err)) {
        for (const w of batch) w.reject(err);
        return;
      }
      for (const w of batch) await this.writeAlone(w);
    }
  }

  private async writeAlone(w: Waiting<In, Out>): Promise<void> {
    try {
      w.resolve(await this.writeOne(w.item));
    } catch (err) {
      w.reject(err);
    }
  }
}
