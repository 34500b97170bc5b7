// What the next sweep of a segment rule would do, computed from the mirror without a write:
// who enters and leaves, each action with the CRM calls it needs after the runner's guards
// (an add-tag on a contact that has the tag costs nothing), and the time at the current budget.
// Pure: the caller gathers contacts, resolved actions, mirror freshness and budget.
import { applyActionLocally, guardAction } from '../../../language/catalogue/action-guards';
import { actionDefinition, type ResolvedAction } from '../../../language/catalogue/catalogue';
import type { SegmentFilters } from '@crm-rules/crm-contract';
import type { RuleAction, RuleDefinition, ScheduleTrigger } from '../../../language/rules/format/rule-types';
import type { MirrorFreshness } from '../../contact-mirror/mirror-policy';
import { toContact, type MirroredContact } from '../../../language/crm-terms/mirrored-contact';
import { toCrmFilters, type ResolvedFilters } from '../../../language/segment-filters/resolved-filters';
import { etaMs } from '../sweeps/sweep-progress';

/** A rule action with its names resolved; `problem` when they could not be (unknown tag...). */
export interface PlannedAction {
  action: RuleAction;
  resolved?: ResolvedAction;
  problem?: string;
}

export interface PlanInput {
  rule: RuleDefinition;
  trigger: ScheduleTrigger;
  now: Date;
  filters: ResolvedFilters;
  counts: { evaluated: number; members: number; entering: number; leaving: number; gone: number };
  entering: MirroredContact[];
  leaving: MirroredContact[];
  /** Contacts that get the rule's actions: entering ones, or every member with `when: every-run`. */
  acting: MirroredContact[];
  actions: PlannedAction[];
  onLeave: PlannedAction[];
  mirror: MirrorFreshness;
  mirrorRefreshCalls: number;
  segmentSyncCall: boolean;
  budget: { limit: number; windowMs: number; usedInWindow: number };
  waitMs: number;
  sampleSize: number;
}

export interface ActionPlan {
  on: 'member' | 'leave';
  action: RuleAction;
  contacts: number;
  calls: number;
  skipped: Record<string, number>;
  problem?: string;
}

export interface SweepPlan {
  ruleId: string;
  ruleVersion: string;
  mode: 'live' | 'shadow';
  when: ScheduleTrigger['when'];
  at: string;
  filters: SegmentFilters;
  mirror: MirrorFreshness;
  counts: PlanInput['counts'] & { acting: number };
  entering: ContactRef[];
  leaving: ContactRef[];
  /** The lists above hold at most sampleSize contacts each. */
  truncated: boolean;
  actions: ActionPlan[];
  crmCalls: { mirrorRefresh: number; segmentSync: number; actions: number; total: number };
  estimatedMs: number;
  budget: PlanInput['budget'] & { waitMs: number };
  notes: string[];
}

export interface ContactRef {
  id: string;
  name: string;
  phone: string;
}

const ref = (c: MirroredContact): ContactRef => ({ id: c.id, name: c.name, phone: c.phone });

export function planSweep(input: PlanInput): SweepPlan {
  const live = input.rule.mode === 'live';
  const actions = [
    ...planActions('member', input.actions, input.acting),
    ...planActions('leave', input.onLeave, input.leaving),
  ];
  const actionCalls = live ? actions.reduce((n, a) => n + a.calls, 0) : 0;
  const crmCalls = {
    mirrorRefresh: input.mirrorRefreshCalls,
    segmentSync: input.segmentSyncCall ? 1 : 0,
    actions: actionCalls,
    total: input.mirrorRefreshCalls + (input.segmentSyncCall ? 1 : 0) + actionCalls,
  };
  return {
    ruleId: input.rule.id,
    ruleVersion: input.rule.version,
    mode: input.rule.mode,
    when: input.trigger.when,
    at: input.now.toISOString(),
    filters: toCrmFilters(input.filters),
    mirror: input.mirror,
    counts: { ...input.counts, acting: input.acting.length },
    entering: input.entering.slice(0, input.sampleSize).map(ref),
    leaving: input.leaving.slice(0, input.sampleSize).map(ref),
    truncated: input.entering.length > input.sampleSize || input.leaving.length > input.sampleSize,
    actions,
    crmCalls,
    estimatedMs: etaMs(crmCalls.total, input.budget, input.waitMs),
    budget: { ...input.budget, waitMs: input.waitMs },
    notes: notes(input),
  };
}

/** One entry per action, counted over the contacts in order, each contact's state carried along its actions. */
function planActions(
  on: ActionPlan['on'],
  planned: PlannedAction[],
  contacts: MirroredContact[],
): ActionPlan[] {
  const out: ActionPlan[] = planned.map((p) => ({
    on,
    action: p.action,
    contacts: contacts.length,
    calls: 0,
    skipped: {},
    ...(p.problem ? { problem: p.problem } : {}),
  }));
  for (const mirrored of contacts) {
    let contact = toContact(mirrored);
    planned.forEach((p, i) => {
      const reason = skipReason(p, contact);
      if (reason) {
        out[i].skipped[reason] = (out[i].skipped[reason] ?? 0) + 1;
        return;
      }
      if (actionDefinition(p.resolved!.type).callsCrm !== false) out[i].calls++;
      contact = applyActionLocally(p.resolved!, contact);
    });
  }
  return out;
}

function skipReason(p: PlannedAction, contact: ReturnType<typeof toContact>): string | undefined {
  if (!p.resolved) return 'unresolved';
  const verdict = guardAction(p.resolved, contact);
  return verdict.proceed ? undefined : verdict.reason;
}

function notes(input: PlanInput): string[] {
  const out: string[] = [];
  if (input.rule.mode === 'shadow') out.push('shadow mode: runs are recorded, no action calls the CRM');
  if (input.mirror.lastFullSyncAt === null) {
    out.push(
      'the contact mirror has not completed a full sync: the plan sees only what it holds; the sweep will read the CRM first',
    );
  }
  if (input.counts.gone > 0)
    out.push(
      `${input.counts.gone} stored member(s) were deleted in the CRM: dropped without on-leave actions`,
    );
  for (const p of [...input.actions, ...input.onLeave])
    if (p.problem) out.push(`${p.action.type}: ${p.problem}`);
  out.push('calls exclude directory reads (tags, stages, members, channels), which are cached');
  return out;
}
