// What one catalogue entry declares about its action, in one place: YAML shape, label, effect
// on the contact, name resolution, guards, the gateway call, where it can run and how a repeat
// is handled. The engine's layers (schema, validator, loop/conflict checks, rule tests, explain,
// plan, runner) dispatch through the registry (catalogue.ts), never through a switch.
// Pure types and small helpers: no Nest.
import type { CrmDirectory } from '../../outbound/crm-gateway/crm-directory.service';
import type { CallOptions, CrmWrites } from '../../outbound/crm-gateway/crm-writes';
import type { Contact } from '@crm-rules/crm-contract';
import type { ActionTarget } from './action-result-terms';
import type { ProblemCollector } from '../rules/format/problem-collector';
import type { YamlPath } from '../rules/format/yaml-source';
import type { PoolSpec } from '../assignment/pool-spec';
import type { PoolChoice } from '../assignment/choose-member';
import type { EgressResponse, OutboundRequest } from '../net/outbound-request';

/**
 * How a repeat after an unclear outcome (timeout, 5xx, crash mid-call) is handled:
 * - state-checked: retry freely, the fresh-read guard turns a repeat into `no_change`;
 * - lookup-before-repeat: look the result up before repeating (it may exist already);
 * - at-most-once: never repeat blindly; find the write or leave it `uncertain` for an operator;
 * - idempotent-by-key: repeat with the same Idempotency-Key (the receiver applies it once): 5xx
 *   and timeouts are retried with the job's backoff, 4xx is final (src/pipeline/execution/idempotent-by-key.ts).
 */
export type RepeatClass = 'state-checked' | 'lookup-before-repeat' | 'at-most-once' | 'idempotent-by-key';

/**
 * Whether an attempt's `running` mark must be durable before the call (a synchronous commit): it
 * is what tells, after a Postgres crash, that a call may have reached the CRM and since when
 * (the look-ups of at-most-once and lookup-before-repeat writes start there; an idempotency key
 * is tied to its row). A state-checked write is the one whose repeat is harmless: a lost mark
 * only means it runs again, and its guard or the CRM's state-setting write absorbs the repeat.
 */
export function runningMarkDurable(repeat: RepeatClass): boolean {
  return repeat !== 'state-checked';
}

export type SkipReason =
  | 'needs_assignee'
  | 'contact_blocked'
  | 'channel_not_connected'
  | 'no_change'
  /** The messaging policy (policy.yaml): a cap per contact reached, or quiet hours (src/language/policy). */
  | 'policy_cap'
  | 'quiet_hours'
  /** A suppression of the policy (an opt-out) holds the message's category. */
  | 'suppressed'
  /** The policy's global control group (holdout): the contact gets no message of the category. */
  | 'holdout'
  /** The run took a split's control arm: no customer message for the rest of it (control-hold.ts). */
  | 'control_arm'
  /** An assignment pool whose every eligible member is at `max-open` (or none can take contacts). */
  | 'pool_full'
  | 'pool_empty';

export type GuardVerdict = { proceed: true } | { proceed: false; reason: SkipReason; detail: string };

export const PROCEED: GuardVerdict = { proceed: true };
export const skip = (reason: SkipReason, detail: string): GuardVerdict => ({
  proceed: false,
  reason,
  detail,
});

/** The event kinds a rule listens to, or 'schedule' for segment rules (sweeps). */
export type TriggerKinds = readonly string[] | 'schedule';

/** A field of the contact an action reads or writes, as conditions name it (`contact.tags`). */
export type ContactField = string;

/** One leaf a rule's match requires (see rules/condition-leaves.ts). */
export interface RequiredLeaf {
  field: string;
  op: string;
  value: unknown;
  negated: boolean;
}

/** What the action does to the contact, for loop/conflict analysis. */
export interface ActionEffect<A> {
  /** The contact field the write changes (every write also changes updatedAt). */
  writes?(action: A): ContactField | undefined;
  /** Event kinds the CRM emits after the write (docs/SANDBOX.md: every contact write emits contact.updated). */
  emits(action: A): string[];
  /**
   * Writes something new on every run that emits `kind`, so a cycle through that event never
   * settles on its own.
   */
  alwaysWrites?(action: A, kind: string): boolean;
  /** True when, right after the write, the leaf is certainly false. */
  falsifies?(action: A, leaf: RequiredLeaf): boolean;
  /**
   * What `other` undoes of this write (`tag "vip"`, `stage`), for the conflict and loop checks.
   * `conflict` marks the ones that are a conflict on one trigger (tags, blocked state).
   */
  undoneBy?(
    action: A,
    other: { type: string } & Record<string, unknown>,
  ): { what: string; conflict: boolean } | undefined;
}

/** The message a message.* trigger carries: what react answers and send-message replies in. */
export interface TriggerMessage {
  id: string;
  conversationId: string;
  messagePlatformId: string;
}

/** What name resolution may use: the directory, and the renderer of templated values. */
export interface ResolveEnv {
  directory: CrmDirectory;
  /** Renders a templated value (`Hi {{contact.name}}`) against the run's facts. */
  render(text: string): string;
  /**
   * A member id for a name, email, uuid or `round-robin`. The runner draws a round-robin member
   * once and records it, so a retry assigns the same one; plans do not draw at all.
   */
  member(nameOrRoundRobin: string): Promise<string>;
  /** The member an assignment pool gives the contact, and why (the runner records it like a draw). */
  pool(spec: PoolSpec): Promise<PoolChoice>;
}

/** A kind of name in the CRM's directory that a rule may use. */
/** `role`: a pool's `{ role: x }`, some member's role (GET /v1/users). */
export type NameKind =
  'tag' | 'stage' | 'member' | 'role' | 'channel' | 'custom field' | 'option' | 'template';

/**
 * A directory name an action uses, checked offline against a CRM snapshot (rules/check-names.ts).
 * `path` is relative to the action's value (`['channel']` in `send-message: { channel: x }`).
 */
export interface NameUse {
  kind: NameKind;
  name: string;
  path: YamlPath;
  /** option: the custom field (fieldKey) whose select options hold the label. */
  field?: string;
  /** template: the language, when names repeat per language. */
  language?: string;
}

/** A value the engine renders per run (`{{contact.name}}`): its name is only known then. */
export const isTemplated = (value: string): boolean => value.includes('{{');

/** What a call may use: the gateway with the run's options, the contact, the trigger's message. */
export interface ExecutionEnv {
  gateway: CrmWrites;
  opts: CallOptions;
  contact: Contact;
  message?: TriggerMessage;
  /** What the attempt aims at, recorded before the call (see `aim`). */
  target?: ActionTarget;
  /** http-request: the way out (src/outbound/egress), this action's key, and where its saved values go. */
  outbound?: OutboundEnv;
}

export interface OutboundEnv {
  send(req: OutboundRequest): Promise<EgressResponse>;
  /** Derived from the run and the action's index: the same on every attempt. */
  idempotencyKey: string;
  /** `save:` values of the answer, stored with the action's result (action_results.saved). */
  saved: Record<string, unknown>;
  /** The name of a configured secret whose value `value` contains (a string anywhere inside), if any. */
  secretIn(value: unknown): string | undefined;
}

export interface ActionDefinition<A extends { type: string }, R extends { type: string }> {
  type: A['type'];
  /** JSON-Schema fragment of the value under the action's key (rule.schema.json is generated from it). */
  schema: Record<string, unknown>;
  /** Written alone, as a plain string item (`- block`). */
  bare?: boolean;
  /** Sends to the customer: needs an assignee and an unblocked contact; takes `assign-first`. */
  messaging?: boolean;
  /**
   * A new message to the customer: counted and held by the messaging policy (caps, quiet hours).
   * react is messaging but not this: it marks the customer's own message, it sends nothing new.
   */
  customerMessage?: boolean;
  /** False for actions that do not act on a contact (create-segment). Default true. */
  needsContact?: boolean;
  /** False for actions that make no CRM call (http-request): plans and forecasts count none. Default true. */
  callsCrm?: boolean;
  repeat: RepeatClass;
  /** The YAML value -> the action's members (problems reported on ctx; the schema's are reported elsewhere). */
  parse(value: unknown, path: YamlPath, ctx: ProblemCollector): Omit<A, 'type' | 'assignFirst'> | undefined;
  /** Values holding mustache templates, with their path relative to the action's value, for offline checks. */
  templates?(action: A): { path: YamlPath; text: string }[];
  /**
   * The directory names the action uses (tags, stages, fields, templates, ...), the same ones
   * `resolve` looks up at run time, so a snapshot can catch a typo before it fails as unknown_name.
   * `assign-first` is checked for every messaging action by the caller.
   */
  names?(action: A): NameUse[];
  /** Why the action cannot work in this trigger, or undefined when it can. */
  unavailableIn?(trigger: TriggerKinds): string | undefined;
  /** How explain, rule tests, plans and validator messages show it. */
  label(action: A): string;
  effect: ActionEffect<A>;
  resolve(action: A, env: ResolveEnv): Promise<R>;
  /** Whether the call may be made for this contact state (the CRM's domain rules, no-op elimination). */
  guard(resolved: R, contact: Contact): GuardVerdict;
  /** The contact as it will be after the write, so later actions are guarded against it. */
  apply(resolved: R, contact: Contact): Contact;
  /** The one gateway call; the contact after the write when the CRM answers with it. */
  execute(resolved: R, env: ExecutionEnv): Promise<Contact | undefined>;
  /** Where the write will land (e.g. the conversation of a message), recorded before the call. */
  aim?(resolved: R, env: ExecutionEnv): Promise<ActionTarget>;
  /**
   * at-most-once writes: whether the write is there, made since `since` (the attempt's start), after
   * an outcome that does not prove it was not (timeout, 5xx, crash mid-call). Absent: it cannot be
   * looked up, and such an outcome leaves the action `uncertain`.
   */
  lookup?(resolved: R, env: ExecutionEnv & { target: ActionTarget; since: Date }): Promise<boolean>;
  /** A failure that means the write is already there (a reason to record), e.g. a 409 for a segment. */
  alreadyDone?(err: unknown): string | undefined;
}

/** Names compare case-insensitively (the directory resolves them that way too). */
export function sameName(a: unknown, b: unknown): boolean {
  return typeof a === 'string' && typeof b === 'string' ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/** docs/CRM-API.md §1: a blocked contact can neither send nor receive; a message needs an assignee. */
export function messagingGuard(contact: Contact): GuardVerdict {
  if (contact.isBlocked) return skip('contact_blocked', `contact ${contact.id} is blocked`);
  if (!contact.assigneeId) return skip('needs_assignee', `contact ${contact.id} has no assignee`);
  return PROCEED;
}

/** `a, b and c` */
export function listInWords(items: readonly string[]): string {
  return items.length <= 1
    ? items.join('')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** A string value as written, or undefined (a wrong type is a schema problem, reported there). */
export const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

const LABEL_VALUE_MAX = 60;

/** The quoted form labels use (`add-tag "vip"`), long texts cut. */
export function quoted(value: unknown): string {
  const shown = JSON.stringify(value) ?? String(value);
  return shown.length > LABEL_VALUE_MAX ? `${shown.slice(0, LABEL_VALUE_MAX)}…` : shown;
}

/** ` assign-first "round-robin"` when the action assigns first, for labels. */
export const assignFirstLabel = (a: { assignFirst?: string }): string =>
  a.assignFirst ? ` assign-first ${quoted(a.assignFirst)}` : '';
