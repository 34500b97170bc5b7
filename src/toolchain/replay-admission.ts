// once / cooldown of the run ledger (actions/run-ledger.ts `admission`), kept in memory for an
// offline replay: per (rule, contact) the time it last fired. Pure.
import type { RuleDefinition } from '../rules/rule-types';

export type Admission = { admitted: true } | { admitted: false; reason: 'once_per_contact' | 'cooldown' };

export class ReplayAdmission {
  private readonly lastFired = new Map<string, number>();

  /** Whether a matched rule may act at `now`; an admitted run counts as fired. */
  admit(rule: Pick<RuleDefinition, 'id' | 'once' | 'cooldownMs'>, contactId: string, now: number): Admission {
    if (rule.once !== 'per-contact' && !rule.cooldownMs) return { admitted: true };
    const key = `${rule.id}\u0000${contactId}`;
    const last = this.lastFired.get(key);
    if (last !== undefined) {
      if (rule.once === 'per-contact') return { admitted: false, reason: 'once_per_contact' };
      if (last > now - rule.cooldownMs!) return { admitted: false, reason: 'cooldown' };
    }
    this.lastFired.set(key, now);
    return { admitted: true };
  }
}
