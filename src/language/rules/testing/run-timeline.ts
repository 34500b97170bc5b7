// Rule tests over time: what the engine does when events arrive at given times and the clock
// moves on. Runs wait (waits, closed windows, a full limit period), wake up, are cancelled by a
// later event, an `unless`, a deleted contact, a goal met; branches take an arm (branch-plan.ts)
// and a wait with on-event is resumed by its event; limits and once / at-most / cooldown count runs.
// Pure and offline: the engine's runner makes the same decisions with delayed jobs.
import type { CompiledRuleSet } from '../../matching/compiled-rule-set';
import { formatEvaluation } from '../../matching/format-explain';
import { durationText } from '../../matching/format-timing';
import type {
  EvaluationFacts,
  FailureFacts,
  RuleAction,
  RuleDefinition,
  WaitStep,
} from '../format/rule-types';
import { heldByControlArm } from '../gates/control-hold';
import { armNotTaken, decideBranch, failureBranchOf, nextControl, splitPoint } from '../gates/branch-plan';
import { gateBefore, goalMet, limitPeriod, unlessHolds, untilMatches } from '../gates/run-gates';
import { mockedOutcome, type MockedResponses } from './mocked-responses';
import { timelinePolicyStep } from './timeline-policy-gate';
import type { SentMessage } from '../../policy/judge-message';
import { renderedTexts } from './rendered-texts';
import { withAwaited, type PendingRun } from './timeline-pending-run';
import { GuardedContact, skipText, type SkipOf } from './live-guards';
import { enrolmentRefusal } from './timeline-enrolment';

export interface TimelineAction {
  action: RuleAction;
  rule: string;
  at: Date;
  /** Its templated values as rendered at that moment (rendered-texts.ts). */
  rendered: string[];
  /** Not sent: a guard, the policy or a control arm skipped it, as the engine would (live-guards.ts). */
  skipped?: SkipOf;
}

export class RunTimeline {
  readonly done: TimelineAction[] = [];
  readonly log: string[] = [];
  /** The path of each run started (rule id -> labels), for `expect: { path }`. */
  readonly paths = new Map<string, string[]>();
  private pending: PendingRun[] = [];
  private readonly runsPerContact = new Map<string, number[]>(); // rule -> start times
  private readonly runsPerPeriod = new Map<string, number>(); // rule|period -> runs started
  private contactFacts?: EvaluationFacts['contact'];
  /** When the contact got customer messages (the messaging policy's caps count them). */
  private readonly sent: SentMessage[];
  /** The contact with the rules' writes to assignee and blocked state on it, as the guards read it. */
  private readonly guarded = new GuardedContact();

  /** `sentBefore`: messages the contact got before the case starts (a case's `sent-in-period`). */
  constructor(
    private readonly ruleSet: CompiledRuleSet,
    private readonly onlyRule?: string,
    /** Mocked answers of http-request steps, by step name. */
    private readonly responses: MockedResponses = {},
    sentBefore: readonly Date[] = [],
    /** A test's chosen split arm (its name), instead of the contact's hash. */
    private readonly splitArm?: string,
    /** A case's `rules:`: only these act (the others are not evaluated). */
    private readonly onlyRules?: ReadonlySet<string>,
    /** `guards: off`: no assignee / blocked guard and no messaging policy (the rule's decision only). */
    private readonly guards = true,
  ) {
    this.sent = sentBefore.map((at) => ({ at }));
  }

  /** Wakes every run due up to `until` (in time order), with the contact as it was before. */
  advanceTo(until: Date): void {
    for (;;) {
      const due = this.pending
        .filter((r) => r.wakeAt !== undefined && r.wakeAt <= until.getTime())
        .sort((a, b) => a.wakeAt! - b.wakeAt!)[0];
      if (!due) return;
      const at = new Date(due.wakeAt!);
      due.wakeAt = undefined;
      this.continueRun(due, this.factsAt(due, at));
    }
  }

  /** An event at facts.now: cancels the waits it ends, then starts the runs of the rules it matches. */
  async event(facts: EvaluationFacts): Promise<void> {
    this.advanceTo(facts.now);
    this.guarded.changed(this.contactFacts, facts.contact);
    this.contactFacts = facts.contact;
    for (const run of [...this.pending]) this.cancelledBy(run, facts);
    const rule = this.onlyRule === undefined ? undefined : this.ruleSet.rule(this.onlyRule);
    const evaluations = rule
      ? rule.trigger.kind === 'event' && rule.trigger.events.includes(facts.event.type)
        ? [await this.ruleSet.evaluateRule(rule.id, facts)]
        : []
      : (await this.ruleSet.evaluateEvent(facts)).filter(
          (e) => !this.onlyRules || this.onlyRules.has(e.ruleId),
        );
    if (evaluations.length === 0)
      this.log.push(
        rule
          ? `  rule ${rule.id} does not listen to ${facts.event.type}`
          : `  no rule listens to ${facts.event.type}`,
      );
    for (const evaluation of evaluations) {
      const def = this.ruleSet.rule(evaluation.ruleId)!;
      this.log.push(...formatEvaluation(def, evaluation, '  '));
      if (!evaluation.matched || !this.enrol(def, facts.now)) continue;
      const run: PendingRun = {
        rule: def,
        next: 0,
        passed: new Set(),
        started: false,
        trigger: facts,
        decided: new Map(),
        path: [],
      };
      this.paths.set(def.id, run.path);
      this.pending.push(run);
      this.continueRun(run, facts);
    }
  }

  /** once / at-most / cooldown, per contact (timeline-enrolment.ts). */
  private enrol(rule: RuleDefinition, now: Date): boolean {
    const starts = this.runsPerContact.get(rule.id) ?? [];
    const why = enrolmentRefusal(rule, starts, now);
    if (why) this.note(now, rule, `suppressed: ${why}`);
    else this.runsPerContact.set(rule.id, [...starts, now.getTime()]);
    return !why;
  }

  private cancelledBy(run: PendingRun, facts: EvaluationFacts): void {
    const type = facts.event.type;
    if (type === 'contact.deleted') return this.cancel(run, facts.now, 'the contact was deleted');
    if (run.wakeAt !== undefined && run.rule.goal && goalMet(run.rule.goal, run.rule.timezone, facts))
      return this.cancel(run, facts.now, `goal reached (${type})`);
    const until = run.waiting?.until;
    if (!until || !untilMatches(until, run.rule.timezone, facts, run.trigger.message?.conversationId)) return;
    if (!run.waiting!.outcomes) return this.cancel(run, facts.now, `${type} arrived during the wait`);
    // A wait with on-event: its event resumes the run, and the on-event steps read that event.
    run.wakeAt = undefined;
    run.awaited = facts.event;
    this.note(facts.now, run.rule, `${type} ended the wait`);
    this.continueRun(run, this.factsAt(run, facts.now));
  }

  /**
   * The waits and branches before the next action, in written order (rules with branches): a
   * wait to sleep through (returned), branches decided. False when the action is in an arm not taken.
   */
  private branchesBefore(run: PendingRun, facts: EvaluationFacts): WaitStep | boolean {
    const { rule } = run;
    const waits = rule.waits ?? [];
    const passed = new Set([...run.passed].map((w) => waits.indexOf(w)));
    for (;;) {
      if (armNotTaken(rule, run.decided, run.next)) return false;
      const next = nextControl(rule, run.next, passed, run.decided);
      if (!next) return true;
      if (next.kind === 'wait') return waits[next.wait];
      const step = rule.branches![next.branch];
      const decision = decideBranch(step, {
        facts,
        timezone: rule.timezone,
        endedByEvent: step.wait !== undefined && run.awaited !== undefined,
        point: splitPoint(rule.id, rule.version, String(facts.contact?.id ?? '')),
      });
      const chosen =
        step.kind === 'split' ? step.arms.findIndex((a) => a.label === `arm:${this.splitArm}`) : -1;
      if (chosen >= 0) Object.assign(decision, { arm: chosen, label: step.arms[chosen].label });
      run.decided.set(next.branch, decision.arm);
      run.path.push(decision.label);
      this.note(facts.now, rule, `branch: ${decision.label}`);
    }
  }

  private continueRun(run: PendingRun, facts: EvaluationFacts): void {
    const { rule } = run;
    const now = facts.now;
    if (run.waiting) {
      const wait = run.waiting;
      run.waiting = undefined;
      run.passed.add(wait);
      if (unlessHolds(wait, rule.timezone, facts))
        return this.cancel(run, now, 'unless passed when the wait ended');
      this.note(now, rule, 'resumed');
    }
    if (!run.started && rule.limit && !this.takeLimit(run, now)) return;
    for (; run.next < rule.actions.length; run.next++) {
      if (rule.branches) {
        const before = this.branchesBefore(run, withAwaited(run, facts, { branch: true }));
        if (before === false) continue;
        if (before !== true)
          return this.sleep(run, now.getTime() + before.ms, `waiting ${durationText(before.ms)}`, before);
      }
      const gate = gateBefore(rule, run.next, (w) => run.passed.has(w), now);
      if (gate.kind === 'wait')
        return this.sleep(run, gate.until.getTime(), `waiting ${durationText(gate.wait.ms)}`, gate.wait);
      if (gate.kind === 'skip-run') return this.cancel(run, now, `skipped: ${gate.why}`);
      if (gate.kind === 'closed')
        return this.sleep(
          run,
          gate.until.getTime(),
          gate.scope === 'rule' ? 'outside the window' : `action ${run.next + 1} outside its window`,
        );
      if (gate.kind === 'skip-action') {
        this.note(now, rule, `action ${run.next + 1} skipped: ${gate.why}`);
        continue;
      }
      const action = rule.actions[run.next];
      const rendered = renderedTexts(action, withAwaited(run, facts));
      // A run in a split's control arm sends no message (control-hold.ts), as in the engine.
      const control = heldByControlArm(rule, run.decided, run.next, action.type);
      // The messaging policy (timeline-policy-gate.ts): caps and quiet hours of customer messages.
      const held = control
        ? { kind: 'skip' as const, reason: 'control_arm' as const, detail: control }
        : this.guards
          ? timelinePolicyStep(this.ruleSet.policy, run, facts, this.sent)
          : { kind: 'ungated' as const };
      if (held.kind === 'defer') return this.sleep(run, held.until.getTime(), held.note);
      // Then assign-first and the message's guard (live-guards.ts), as the engine's runner does.
      const skipped =
        held.kind === 'skip'
          ? { reason: held.reason, detail: held.detail }
          : this.guards
            ? this.guarded.guard(action, this.guarded.over(facts.contact))
            : undefined;
      this.done.push({ action, rule: rule.id, at: now, rendered, ...(skipped ? { skipped } : {}) });
      if (skipped) {
        this.note(now, rule, `action ${run.next + 1} ${skipText(skipped)}`);
        continue;
      }
      if (held.kind === 'send')
        this.sent.push({ at: now, ...(held.category ? { category: held.category } : {}) });
      for (const text of rendered) this.note(now, rule, `${action.type} renders ${JSON.stringify(text)}`);
      if (action.type === 'http-request') {
        const answer = mockedOutcome(action, this.responses);
        this.note(now, rule, answer.note);
        if (!answer.goesOn && !this.tookFailureArm(run, now, answer.failure!)) break;
      }
    }
    this.pending = this.pending.filter((r) => r !== run);
  }

  /** A failed action with `on-failure:`: its arm is taken (as the engine's runner does) and the run goes on. */
  private tookFailureArm(run: PendingRun, now: Date, failure: FailureFacts): boolean {
    const branch = failureBranchOf(run.rule, run.next);
    if (branch === undefined) return false;
    run.decided.set(branch, 0);
    run.failures = [...(run.failures ?? []), { branch, arm: 0, failure }];
    run.path.push('on-failure');
    this.note(now, run.rule, 'branch: on-failure');
    return true;
  }

  /** Fixed periods of `per`: the first `max` runs of a period go, the rest queue or skip. */
  private takeLimit(run: PendingRun, now: Date): boolean {
    const { max, perMs, over } = run.rule.limit!;
    const { period, nextStart } = limitPeriod(run.rule.limit!, now);
    const key = `${run.rule.id}|${period}`;
    const used = this.runsPerPeriod.get(key) ?? 0;
    if (used < max) {
      this.runsPerPeriod.set(key, used + 1);
      run.started = true;
      return true;
    }
    if (over === 'skip') this.cancel(run, now, `skipped: rate limited (${max} per ${durationText(perMs)})`);
    else this.sleep(run, nextStart.getTime(), `rate limited (${max} per ${durationText(perMs)})`);
    return false;
  }

  private sleep(run: PendingRun, until: number, why: string, wait?: WaitStep): void {
    run.wakeAt = until;
    run.waiting = wait;
    this.note(
      new Date(until > 0 ? until : 0),
      run.rule,
      `${why}: waiting until ${new Date(until).toISOString()}`,
      true,
    );
  }

  private cancel(run: PendingRun, at: Date, why: string): void {
    this.pending = this.pending.filter((r) => r !== run);
    this.note(at, run.rule, `cancelled: ${why}`);
  }

  private note(at: Date, rule: RuleDefinition, text: string, future = false): void {
    this.log.push(`  ${future ? '' : `${at.toISOString()} `}rule ${rule.id}: ${text}`);
  }

  private factsAt(run: PendingRun, now: Date): EvaluationFacts {
    return { ...run.trigger, ...(this.contactFacts ? { contact: this.contactFacts } : {}), now };
  }

  /** The contact as the engine would read it fresh: later steps may change it without an event. */
  setContact(contact: EvaluationFacts['contact']): void {
    if (!contact) return;
    this.guarded.changed(this.contactFacts, contact);
    this.contactFacts = contact;
  }
}
