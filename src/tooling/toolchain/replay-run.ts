// One run of a rule in `diff`'s replay: the actions of its path (replay-path.ts), each customer
// message submitted to the side's messaging policy (offline-policy.ts, counting across all the
// side's rules and judged at its release as the engine's gate judges it). What became of the
// messages is known once the side's policy settled: `finish()` then says which labels were done
// (a deferred one that went reads `<label> (deferred quiet_hours)`) and which the policy skipped,
// with why. Guards are not applied: they need the CRM's state at the time. Pure.
import type { OfflinePolicy, PolicyTicket } from '../../language/policy/offline-policy';
import { inboundAt } from '../../language/policy/messaging-policy';
import { declaredCategory, policyContactOf } from '../../language/policy/policy-categories';
import type { EvaluationFacts, RuleDefinition } from '../../language/rules/format/rule-types';
import { runPath } from './replay-path';

export interface ReplayedRun {
  /** Labels of the actions done; a deferred message reads `<label> (deferred quiet_hours)`. */
  labels: string[];
  /** Label → why the policy skipped it (policy_cap, quiet_hours). */
  held: Record<string, string>;
}

/** A replayed run whose messages wait for the policy's settle(). */
export interface PendingRun {
  finish(): ReplayedRun;
}

/** The outcome of a message a control arm holds: known at once, no policy asked. */
const CONTROL_ARM: PolicyTicket = {
  outcome: { kind: 'skipped', reason: 'control_arm', detail: 'the run took a control arm' },
};

export function replayRun(
  rule: RuleDefinition,
  labels: readonly string[],
  facts: EvaluationFacts,
  contactId: string,
  policy: OfflinePolicy | undefined,
): PendingRun {
  const path = runPath(rule, facts, contactId);
  const contact = policyContactOf(facts.contact);
  // A reply to an inbound message may be exempt (the policy's reply grace).
  const inbound = facts.event.type.startsWith('message.') ? inboundAt(facts.message) : undefined;
  const steps: { label: string; ticket?: PolicyTicket }[] = path.actions.map((a) => {
    const at = new Date(facts.now.getTime() + path.delayMs(a));
    const action = rule.actions[a];
    // A run in a split's control arm sends no message (control-hold.ts), as in the engine.
    if (path.controlHeld(a)) return { label: labels[a], ticket: CONTROL_ARM };
    const category = declaredCategory(action);
    const ticket = policy?.submit(contactId, {
      type: action.type,
      ...(category ? { category } : {}),
      at,
      contact,
      inboundAt: inbound,
    });
    return { label: labels[a], ...(ticket ? { ticket } : {}) };
  });
  return {
    finish() {
      const out: ReplayedRun = { labels: [], held: {} };
      for (const { label, ticket } of steps) {
        const o = ticket?.outcome;
        if (o?.kind === 'skipped') out.held[label] = o.reason;
        else out.labels.push(o?.deferred ? `${label} (deferred ${o.deferred})` : label);
      }
      return out;
    },
  };
}
