// What a forecast says of each action of a rule: how many members' runs send it, skip it (why) or
// defer it, and how long after the sweep it comes. That delay depends on the path: an action after
// a branch comes a day later down the arm with `wait: 1d` and at once down the other. So members are
// counted per delay actually passed (one row each, shortest first), never shown the delay of
// another arm's path. Pure.
import type { ActionOutcome } from './simulate-actions';

export interface ActionForecast {
  action: string;
  sent: number;
  skipped: Record<string, number>;
  /** Sent later than the sweep: held by the messaging policy (quiet hours, a cap with over-cap: defer). */
  deferred?: Record<string, number>;
  /** Rules with branches: the arms the action lies in, outermost first (e.g. ["then", "arm:b"]). */
  arms?: string[];
  /** Members whose run takes another arm: the action is not done for them (on the first row). */
  notTaken?: number;
  /** How long after the sweep the members of this row reach the action: the waits on their path. */
  afterWaitMs?: number;
}

/** One action's outcomes over the members, per delay passed before it. */
export class ActionTally {
  private readonly byDelay = new Map<number, ActionForecast>();
  private notTaken = 0;

  constructor(private readonly identity: Pick<ActionForecast, 'action' | 'arms'>) {}

  count(o: ActionOutcome, delayMs: number): void {
    if (o.status === 'not_taken') {
      this.notTaken++;
      return;
    }
    const row = this.rowAt(delayMs);
    if (o.status === 'skipped') row.skipped[o.reason] = (row.skipped[o.reason] ?? 0) + 1;
    else if (!o.deferred) row.sent++;
    else (row.deferred ??= {})[o.deferred] = (row.deferred[o.deferred] ?? 0) + 1;
  }

  /** The rows, shortest delay first; an action nobody reaches still has one (sent 0). */
  rows(): ActionForecast[] {
    const rows = [...this.byDelay.entries()].sort(([a], [b]) => a - b).map(([, row]) => row);
    if (rows.length === 0) rows.push(this.emptyRow(0));
    if (this.notTaken > 0) rows[0].notTaken = this.notTaken;
    return rows;
  }

  private rowAt(delayMs: number): ActionForecast {
    let row = this.byDelay.get(delayMs);
    if (!row) this.byDelay.set(delayMs, (row = this.emptyRow(delayMs)));
    return row;
  }

  private emptyRow(delayMs: number): ActionForecast {
    return {
      action: this.identity.action,
      ...(this.identity.arms ? { arms: this.identity.arms } : {}),
      sent: 0,
      skipped: {},
      ...(delayMs > 0 ? { afterWaitMs: delayMs } : {}),
    };
  }
}
