// The messaging-policy gate of the simulated clock (run-timeline.ts): before a customer message,
// the same caps and quiet hours the engine's policy gate applies. Kept apart and pure so the
// timeline stays about runs and the clock; the timeline applies the step (note, sleep, count).
import { judgeMessage, type SentMessage } from '../../policy/judge-message';
import { declaredCategory, policyContactOf } from '../../policy/policy-categories';
import { inboundAt, type MessagingPolicy } from '../../policy/messaging-policy';
import type { EvaluationFacts, RuleDefinition } from '../format/rule-types';
import type { SkipReason } from '../../catalogue/action-definition';

/**
 * `ungated`: not a customer message or no policy; `send`: the message goes and counts against
 * the caps (of its `category`); `skip`: the action is skipped; `defer`: the run sleeps until `until`.
 */
export type TimelinePolicyStep =
  | { kind: 'ungated' }
  | { kind: 'send'; category?: string }
  | { kind: 'skip'; reason: SkipReason; detail: string; note: string }
  | { kind: 'defer'; until: Date; note: string };

/** The run at its next action, as the timeline holds it. */
export interface TimelineRunAt {
  rule: RuleDefinition;
  /** Index of the next action (0-based). */
  next: number;
  /** The triggering event's facts: a message.* run answers its inbound message. */
  trigger: EvaluationFacts;
}

/**
 * The messaging policy before a customer message, as the engine's policy gate decides it.
 * `sent`: the customer messages the contact got so far.
 */
export function timelinePolicyStep(
  policy: MessagingPolicy | undefined,
  run: TimelineRunAt,
  facts: EvaluationFacts,
  sent: readonly SentMessage[],
): TimelinePolicyStep {
  const action = run.rule.actions[run.next];
  // The engine's decision (judge-message.ts), asked again when a deferred run wakes, as the engine does.
  const decision = judgeMessage(policy, {
    type: action.type,
    ...(declaredCategory(action) ? { category: declaredCategory(action) } : {}),
    now: facts.now,
    contact: policyContactOf(facts.contact),
    sent,
    inboundAt: run.trigger.event.type.startsWith('message.') ? inboundAt(run.trigger.message) : undefined,
  });
  if (!decision) return { kind: 'ungated' };
  const which = `action ${run.next + 1}`;
  if (decision.kind === 'skip')
    return {
      kind: 'skip',
      reason: decision.reason,
      detail: decision.detail,
      note: `${which} skipped: ${decision.reason} (${decision.detail})`,
    };
  if (decision.kind === 'defer')
    return {
      kind: 'defer',
      until: decision.until,
      note: `${which} deferred: ${decision.reason} (${decision.detail})`,
    };
  const category = declaredCategory(action);
  return category ? { kind: 'send', category } : { kind: 'send' };
}
