// A small in-process cache of one CRM list (tags, stages, members, channels): loaded once,
// refreshed when stale or on a miss, with concurrent loads shared. A name that missed is
// remembered for a while, so a typo in a rule cannot spend the budget on a reload per run.

export class CachedList<T> {
  private items?: T[];
  private loadedAt = -Infinity;
  private inflight?: Promise<T[]>;
  private readonly misses = new Map<string, number>();

  constructor(
    private readonly load: () => Promise<T[]>,
    private readonly ttlMs: number,
    private readonly missTtlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async get(): Promise<T[]> {
    if (this.items && this.now() - this.loadedAt < this.ttlMs) return this.items;
    return this.refresh();
  }

  /** The list when it is loaded and fresh, without loading anything (undefined otherwise). */
  peek(): T[] | undefined {
    return this.items && this.now() - this.loadedAt < this.ttlMs ? this.items : undefined;
  }

  /** After a miss of `key`: a fresh list, or undefined when that key already missed recently. */
  async refreshOnMiss(key: string): Promise<T[] | undefined> {
    const now = this.now();
    for (const [k, at] of this.misses) if (now - at >= this.missTtlMs) this.misses.delete(k);
    if (this.misses.has(key)) return undefined;
    this.misses.set(key, now);
    return this.refresh();
  }

  /** Forget every recent miss: the next miss of any key reloads the list. */
  forgetMisses(): void {
    this.misses.clear();
  }

  private refresh(): Promise<T[]> {
    this.inflight ??= this.load()
      .then((items) => {
        this.items = items;
        this.loadedAt = this.now();
        return items;
      })
      .finally(() => {
        this.inflight = undefined;
      });
    return this.inflight;
  }
}
