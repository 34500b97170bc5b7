import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus metrics of the engine, on a registry of its own (tests boot several apps per process). */
@Injectable()
export class EngineMetrics {
  readonly registry = new Registry();

  readonly events = new Counter({
    name: 'crmr_webhook_events_total',
    help: 'Webhook deliveries by outcome (accepted, duplicate, refused_signature, refused_json, unavailable, ...)',
    labelNames: ['outcome'],
    registers: [this.registry],
  });

  readonly runs = new Counter({
    name: 'crmr_runs_total',
    help: 'Rule runs created, by status at creation (pending, not_matched, suppressed) and rule',
    labelNames: ['status', 'rule'],
    registers: [this.registry],
  });

  readonly loopBrake = new Counter({
    name: 'crmr_loop_brake_total',
    help: 'Runs the own-write loop brake suppressed (own_write_loop): a CRM-writing rule re-triggered by its own write',
    labelNames: ['rule'],
    registers: [this.registry],
  });

  readonly subscriptionDelivering = new Gauge({
    name: 'crmr_webhook_subscription_delivering',
    help: '1 while the CRM delivers the events the rules need to this engine; 0 while its subscription is disabled or missing (until the check repairs it)',
    registers: [this.registry],
  });

  readonly subscriptionRepairs = new Counter({
    name: 'crmr_webhook_subscription_repairs_total',
    help: 'Webhook subscriptions recreated because the CRM had disabled or lost them',
    labelNames: ['cause'],
    registers: [this.registry],
  });

  readonly runDispatch = new Counter({
    name: 'crmr_run_dispatch_total',
    help: "An event's acting runs: executed in the events job (inline) or handed to the actions queue (queued), and why",
    labelNames: ['how'],
    registers: [this.registry],
  });

  readonly actions = new Counter({
    name: 'crmr_actions_total',
    help: 'Actions finished, by type, status and reason',
    labelNames: ['type', 'status', 'reason'],
    registers: [this.registry],
  });

  readonly queueDepth = new Gauge({
    name: 'crmr_queue_jobs',
    help: 'Jobs per queue and state',
    labelNames: ['queue', 'state'],
    registers: [this.registry],
  });

  /** 1 for the deployed version this process runs (a mixed fleet shows several commits). */
  readonly rulesActiveCommit = new Gauge({
    name: 'crmr_rules_active_commit',
    help: 'The rule-set version this process runs: 1 on its commit (git) or dir-<hash> (RULES_DIR)',
    labelNames: ['commit', 'source'],
    registers: [this.registry],
  });

  /** 0 while this process could not load the version Postgres says is active (it keeps its own). */
  readonly rulesInSync = new Gauge({
    name: 'crmr_rules_in_sync',
    help: '1 when this process runs the active version, 0 when it could not load it and kept the one it had',
    registers: [this.registry],
  });

  /** 0 while git cannot be fetched (the active version keeps running). */
  readonly rulesGitReachable = new Gauge({
    name: 'crmr_rules_git_reachable',
    help: '1 when the last fetch of RULES_GIT_URL succeeded, 0 when it failed',
    registers: [this.registry],
  });

  /** Names in the active rules the live CRM directory lacks (issue 31, names drift). */
  readonly rulesMissingNames = new Gauge({
    name: 'crmr_rules_missing_names',
    help: 'Names the active rules use that the CRM directory no longer has, by kind',
    labelNames: ['kind'],
    registers: [this.registry],
  });

  readonly rulesGitHooks = new Counter({
    name: 'crmr_rules_git_hooks_total',
    help: 'POST /hooks/git by outcome (fetch, other_ref, unsigned, bad_signature, no_secret_configured)',
    labelNames: ['outcome'],
    registers: [this.registry],
  });

  readonly sweepProgress = new Gauge({
    name: 'crmr_sweep_progress',
    help: 'Progress of the current segment sweep per rule (pages, contacts, actions)',
    labelNames: ['rule', 'measure'],
    registers: [this.registry],
  });

  readonly credentialFailures = new Counter({
    name: 'crmr_credential_failures_total',
    help: 'Credentials refused at any door (console, admin, health, queue_board, docs, metrics): wrong (checked and wrong) or throttled (refused unchecked, too soon after failures)',
    labelNames: ['door', 'reason'],
    registers: [this.registry],
  });

  readonly consoleLoginFailures = new Counter({
    name: 'crmr_console_login_failures_total',
    help: 'Console logins refused: wrong_token (checked and wrong) or throttled (refused unchecked, too soon after failures)',
    labelNames: ['reason'],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'crmr_' });
  }
}
