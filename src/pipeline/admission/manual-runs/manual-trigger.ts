// Manual runs (POST /admin/rules/:id/run, `crm-rules run`, the console's "Run for a contact"): who
// asked is kept in the run's trigger key, `manual:<who>:<request id>`, beside its created_at (when).
// The trigger key is already unique per (trigger, rule, contact), shown by every run view, and
// needs no column of its own. Pure: no Nest, no I/O.
import { randomUUID } from 'node:crypto';

export const MANUAL_TRIGGER_PREFIX = 'manual:';
/** The event type of a manual run's facts (`event.type`) and of its run. */
export const MANUAL_EVENT_TYPE = 'manual';
/** Who asked through the admin API with the admin token. */
export const ADMIN_API_CALLER = 'admin-api';

/** `who`: "admin-api" or "console" (the admin token), or a user: "<email>/<user id>" (admin-auth/principal.ts). */
export function manualTriggerKey(who: string, requestId: string = randomUUID()): string {
  return `${MANUAL_TRIGGER_PREFIX}${who}:${requestId}`;
}

/** Who asked for a manual run, from its trigger key; undefined for any other trigger. */
export function manualRunBy(triggerKey: string): string | undefined {
  if (!triggerKey.startsWith(MANUAL_TRIGGER_PREFIX)) return undefined;
  const rest = triggerKey.slice(MANUAL_TRIGGER_PREFIX.length);
  const cut = rest.lastIndexOf(':');
  return cut > 0 ? rest.slice(0, cut) : undefined;
}

export type ManualRunRefusal = { status: 400 | 404 | 409; code: string; message: string };

/** Why a rule cannot be run by hand, or undefined when it can. */
export function manualRunRefusal(
  rule: { id: string; enabled: boolean; trigger: { kind: string } } | undefined,
  ruleId: string,
): ManualRunRefusal | undefined {
  if (!rule) return { status: 404, code: 'unknown_rule', message: `no rule "${ruleId}" in the running set` };
  if (rule.trigger.kind === 'schedule')
    return {
      status: 409,
      code: 'segment_rule',
      message:
        `"${rule.id}" is a segment rule: it acts on its segment's members on its schedule, ` +
        'and a contact enters or leaves a segment only by its filters; run an event rule instead',
    };
  if (!rule.enabled)
    return { status: 409, code: 'rule_disabled', message: `"${rule.id}" is disabled (enabled: false)` };
  return undefined;
}
