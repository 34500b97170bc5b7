// Local side of the shared budget: callers of this process wait here in FIFO order per
// priority; only the front of each local queue asks Redis (a batch per round trip),
// sleeping exactly until the slot Redis says may free next. Redis keeps the global order.
// Every waiter has a deadline: one whose slot cannot come before it leaves the queue.
import { randomBytes } from 'node:crypto';
import type { Priority, RateBudget } from './rate-budget';

export interface BudgetGrant {
  /** How long the call waited for its slot. */
  readonly waitedMs: number;
  /** The answer is back (or the call failed): the slot counts from now. Idempotent. */
  release(): Promise<void>;
}

interface Waiter {
  ticket: string;
  startedAt: number;
  deadline: number;
  registered: Promise<unknown>;
  resolve(grant: BudgetGrant): void;
  reject(err: unknown): void;
}

export class BudgetClosedError extends Error {
  constructor() {
    super('the CRM budget is closed (shutting down)');
  }
}

/** The slot could not come before the caller's deadline; the call was not sent. */
export class BudgetWaitTimeoutError extends Error {
  constructor(waitedMs: number, moreMs: number | undefined) {
    const more = moreMs === undefined ? '' : ` and the next slot is ${moreMs} ms away`;
    super(`gave up waiting for a CRM budget slot after ${waitedMs} ms${more} (CRM_BUDGET_MAX_WAIT_MS)`);
    this.name = 'BudgetWaitTimeoutError';
  }
}

export interface BudgetGateOptions {
  /** Upper bound of one sleep: keeps this process's heartbeat fresh during long pauses. */
  maxPollMs?: number;
  /** Waiters offered to Redis in one round trip: a burst is granted at once. */
  batchSize?: number;
  /** Told when Redis had lost the budget's state and this process started it cold. */
  onColdStart?(closedForMs: number): void;
}

export class BudgetGate {
  readonly processId = randomBytes(6).toString('hex');
  private seq = 0;
  private readonly queues: Record<Priority, Waiter[]> = { interactive: [], bulk: [] };
  private readonly pumping: Record<Priority, boolean> = { interactive: false, bulk: false };
  private readonly sleepers = new Set<() => void>();
  private closed = false;

  private readonly maxPollMs: number;
  private readonly batchSize: number;

  constructor(
    private readonly budget: RateBudget,
    private readonly options: BudgetGateOptions = {},
  ) {
    this.maxPollMs = options.maxPollMs ?? 1_000;
    this.batchSize = options.batchSize ?? 50;
  }

  /** A slot of this priority; rejected with BudgetWaitTimeoutError if none can come before `deadline` (epoch ms). */
  acquire(priority: Priority, deadline = Infinity): Promise<BudgetGrant> {
    if (this.closed) return Promise.reject(new BudgetClosedError());
    return new Promise<BudgetGrant>((resolve, reject) => {
      const ticket = `${this.processId}|${++this.seq}`;
      const registered = this.budget.enqueue(ticket, priority, this.processId);
      registered.catch(() => undefined); // handled when this waiter reaches the head
      this.queues[priority].push({ ticket, startedAt: Date.now(), deadline, registered, resolve, reject });
      void this.pump(priority);
    });
  }

  /** Calls of this process waiting for a slot. */
  localWaiting(): Record<Priority, number> {
    return { interactive: this.queues.interactive.length, bulk: this.queues.bulk.length };
  }

  /** Rejects every local waiter and removes its ticket from the shared queues. */
  async close(): Promise<void> {
    this.closed = true;
    for (const wake of this.sleepers) wake();
    const pending = (['interactive', 'bulk'] as const).flatMap((p) =>
      this.queues[p].splice(0).map((w) => ({ w, p })),
    );
    for (const { w } of pending) w.reject(new BudgetClosedError());
    await Promise.allSettled(pending.map(({ w, p }) => this.budget.cancel(w.ticket, p)));
  }

  private async pump(priority: Priority): Promise<void> {
    if (this.pumping[priority]) return;
    this.pumping[priority] = true;
    const queue = this.queues[priority];
    try {
      while (!this.closed && queue.length > 0) {
        const batch = queue.slice(0, this.batchSize);
        try {
          // Sent without waiting for the tickets' enqueues: both go over one Redis connection,
          // which runs them in order, so a call that came a moment ago is asked for in the same
          // round trip as it is queued. A ticket Redis does not know yet comes back as `lost`.
          const tried = this.budget.tryAcquire(
            batch.map((w) => w.ticket),
            priority,
            this.processId,
          );
          const [result, registered] = await Promise.all([
            tried,
            Promise.allSettled(batch.map((w) => w.registered)),
          ]);
          if (result.coldStart) this.options.onColdStart?.(result.waitMs);
          for (const waiter of queue.splice(0, result.granted)) waiter.resolve(this.grant(waiter, priority));
          // An enqueue that failed fails its caller and those behind it, as Redis failing does.
          const failed = registered.slice(result.granted).find((r) => r.status === 'rejected');
          if (failed) throw failed.reason;
          if (result.lost) {
            // Our tickets were dropped (this process looked dead): queue again, at the back.
            queue[0].registered = this.budget.enqueue(queue[0].ticket, priority, this.processId);
          } else if (result.granted < batch.length) {
            // Those behind the first refused ticket wait at least as long as it does.
            await this.expire(priority, Date.now() + result.waitMs, result.waitMs);
            if (queue.length > 0) await this.sleep(Math.min(result.waitMs, this.maxPollMs));
          }
        } catch (err) {
          // Redis failed: fail these callers rather than leave them waiting forever.
          for (const waiter of batch) {
            const at = queue.indexOf(waiter);
            if (at >= 0) queue.splice(at, 1);
            waiter.reject(err);
          }
          await Promise.allSettled(batch.map((w) => this.budget.cancel(w.ticket, priority)));
        }
      }
    } finally {
      this.pumping[priority] = false;
    }
  }

  /** Rejects, and takes out of the shared queue, every waiter whose deadline comes before `slotAt`. */
  private async expire(priority: Priority, slotAt: number, waitMs: number): Promise<void> {
    const queue = this.queues[priority];
    const late = queue.filter((w) => w.deadline < slotAt);
    if (late.length === 0) return;
    for (const w of late) queue.splice(queue.indexOf(w), 1);
    await Promise.allSettled(late.map((w) => this.budget.cancel(w.ticket, priority)));
    const now = Date.now();
    for (const w of late) w.reject(new BudgetWaitTimeoutError(now - w.startedAt, waitMs));
  }

  private grant(waiter: Waiter, priority: Priority): BudgetGrant {
    let released: Promise<void> | undefined;
    return {
      waitedMs: Date.now() - waiter.startedAt,
      release: () => (released ??= this.budget.release(waiter.ticket, priority)),
    };
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }
}
