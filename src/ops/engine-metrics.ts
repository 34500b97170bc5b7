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
