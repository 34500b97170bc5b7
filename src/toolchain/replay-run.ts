// One run of a rule in `diff`'s replay: the actions of its path (replay-path.ts), each customer
// message put to the side's messaging policy (offline-policy.ts, counting across all the side's
// rules as the engine's gate does): skipped ones are not done (their reason kept, so the report can
// say why a contact loses a message), deferred ones are done later (labelled so). Guards are not
// applied: they need the CRM's state at the time. Pure.
import type { OfflinePolicy } from '../language/policy/offline-policy';
import { inboundAt } from '../language/policy/messaging-policy';
import type { EvaluationFacts, RuleDefinition } from '../language/rules/rule-types';
import { runPath } from './replay-path';

export interface ReplayedRun {
  /** Labels of the actions done; a deferred message reads `<label> (deferred quiet_hours)`. */
  labels: string[];
  /** Label → why the policy skipped it (policy_cap, quiet_hours). */
  held: Record<string, string>;
}

export function replayRun(
  rule: RuleDefinition,
  labels: readonly string[],
  facts: EvaluationFacts,
  contactId: string,
  policy: OfflinePolicy | undefined,
): ReplayedRun {
  const path = runPath(rule, facts, contactId);
  const fields = facts.contact?.customFields as Record<string, unknown> | undefined;
  // A reply to an inbound message may be exempt (the policy's reply grace).
  const inbound = facts.event.type.startsWith('message.') ? inboundAt(facts.message) : undefined;
  const out: ReplayedRun = { labels: [], held: {} };
  for (const a of path.actions) {
    const at = new Date(facts.now.getTime() + path.delayMs(a));
    const decision = policy?.decide(contactId, rule.actions[a].type, at, fields, inbound);
    if (decision?.kind === 'skip') out.held[labels[a]] = decision.reason;
    else
      out.labels.push(decision?.kind === 'defer' ? `${labels[a]} (deferred ${decision.reason})` : labels[a]);
  }
  return out;
}
