// Everything the sandbox holds between requests: the state built from the current
// fixture, the rate limiter, armed faults, call counters and the webhook dispatcher.
// A plain class (no Nest) created by startSandbox and handed to the module, so close()
// can stop its timers whatever Nest does.
import { authenticate } from './domain/api-key-auth';
import { FaultInjector } from './domain/fault-injector';
import { buildState } from './domain/fixture-builder';
import type { SandboxFixture } from './domain/fixture-types';
import { SandboxError } from './domain/sandbox-error';
import type { OpContext, OrgState, SandboxState } from './domain/sandbox-state';
import { SlidingWindowLog } from './domain/sliding-window-log';
import { WebhookDispatcher } from './delivery/webhook-dispatcher';

export interface RuntimeOptions {
  fixture: SandboxFixture;
  rateLimit: { limit: number; windowMs: number };
  webhookRetryBaseMs: number;
  webhookTimeoutMs: number;
  log: boolean;
  /** The key whose organization control-surface calls use when no orgKey is given. */
  defaultOrgKey?: string;
  now?: () => Date;
}

export const SANDBOX_RUNTIME = Symbol('SANDBOX_RUNTIME');

export class SandboxRuntime {
  readonly limiter: SlidingWindowLog;
  readonly faults = new FaultInjector();
  readonly dispatcher: WebhookDispatcher;
  readonly counters = new Map<string, number>();
  readonly now: () => Date;
  state: SandboxState;
  private fixture: SandboxFixture;

  constructor(readonly options: RuntimeOptions) {
    this.now = options.now ?? (() => new Date());
    this.fixture = options.fixture;
    this.state = buildState(this.fixture, this.now());
    this.limiter = new SlidingWindowLog(options.rateLimit.limit, options.rateLimit.windowMs);
    this.dispatcher = new WebhookDispatcher({
      retryBaseMs: options.webhookRetryBaseMs,
      timeoutMs: options.webhookTimeoutMs,
      faults: this.faults,
      now: this.now,
      log: options.log ? (line) => console.log(line) : undefined,
    });
  }

  /** Back to the loaded fixture: state, counters, faults, rate windows and delivery log. */
  reset(): void {
    this.resetTo(buildState(this.fixture, this.now()));
  }

  /** Loads a new fixture (validated first: a broken one leaves the current state alone). */
  loadFixture(fixture: SandboxFixture): void {
    const state = buildState(fixture, this.now()); // throws before anything changes
    this.fixture = fixture;
    this.resetTo(state);
  }

  private resetTo(state: SandboxState): void {
    this.dispatcher.cancelAll();
    this.state = state;
    this.counters.clear();
    this.faults.clear();
    this.limiter.reset();
    this.dispatcher.clearLog();
  }

  countCall(route: string): void {
    this.counters.set(route, (this.counters.get(route) ?? 0) + 1);
  }

  context(org: OrgState, apiKey?: OpContext['apiKey']): OpContext {
    return { org, apiKey, now: this.now, emit: (type, data) => this.dispatcher.publish(org, type, data) };
  }

  /** Control surface: the organization of `orgKey` (any of its keys, even revoked) or its id. */
  orgFor(orgKey: string | undefined): OrgState {
    const key = orgKey ?? this.options.defaultOrgKey ?? 'sk_demo_full';
    const byKey = this.state.apiKeys.get(key);
    const org = byKey ? this.state.orgs.get(byKey.orgId) : this.state.orgs.get(key);
    if (org) return org;
    if (orgKey === undefined) {
      const first = this.state.orgs.values().next().value;
      if (first) return first;
    }
    throw new SandboxError(
      404,
      'invalid_request_error',
      'resource_not_found',
      'No organization for the given orgKey',
    );
  }

  authenticate(authorization: string | undefined) {
    return authenticate(this.state, authorization);
  }

  close(): void {
    this.dispatcher.close();
  }
}
