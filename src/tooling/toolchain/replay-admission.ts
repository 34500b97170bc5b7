// once / at-most / cooldown of the run ledger (ledger/create-run.ts, enrollments), kept in memory
// for an offline replay: per (rule, contact) when it last fired and how many times. Pure.
import type { RuleDefinition } from '../../language/rules/format/rule-types';

export type Admission =
  { admitted: true } | { admitted: false; reason: 'once_per_contact' | 'at_most_per_contact' | 'cooldown' };

export class ReplayAdmission {
  private readonly fired = new Map<string, { at: number; count: number }>();

  /** Whether a matched rule may act at `now`; an admitted run counts as fired. */
  admit(
    rule: Pick<RuleDefinition, 'id' | 'once' | 'cooldownMs' | 'atMost'>,
    contactId: string,
    now: number,
  ): Admission {
    const max = rule.once === 'per-contact' ? 1 : rule.atMost;
    if (max === undefined && !rule.cooldownMs) return { admitted: true };
    const key = `${rule.id}\u0000${contactId}`;
    const last = this.fired.get(key);
    if (last !== undefined) {
      if (max !== undefined && last.count >= max)
        return {
          admitted: false,
          reason: max === 1 && rule.once ? 'once_per_contact' : 'at_most_per_contact',
        };
      if (rule.cooldownMs && last.at > now - rule.cooldownMs) return { admitted: false, reason: 'cooldown' };
    }
    this.fired.set(key, { at: now, count: (last?.count ?? 0) + 1 });
    return { admitted: true };
  }
}
