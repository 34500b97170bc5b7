// The CRM budget as the engine's observers see it (ops metrics, the console, sweep plans and
// progress): its state across processes, the wait a call would have, the gateway's counters.
// No CRM operation: looking at the budget neither reads nor writes the CRM.
import { Injectable } from '@nestjs/common';
import type { Registry } from 'prom-client';
import { CrmGateway, type BudgetSnapshot } from './crm-gateway.service';
import type { GatewayCounters } from './gateway-metrics';
import type { Priority } from './rate-budget';

export type { BudgetSnapshot } from './crm-gateway.service';

@Injectable()
export class CrmBudgetView {
  /** The gateway's prom-client series; /metrics merges them with the engine's. */
  readonly registry: Registry;
  readonly budgetSnapshot: () => Promise<BudgetSnapshot>;
  readonly estimateWaitMs: (priority: Priority) => Promise<number>;
  readonly counters: () => Promise<GatewayCounters>;

  constructor(gateway: CrmGateway) {
    this.registry = gateway.metrics.registry;
    this.budgetSnapshot = () => gateway.budgetSnapshot();
    this.estimateWaitMs = (priority) => gateway.estimateWaitMs(priority);
    this.counters = () => gateway.counters();
  }
}
