import { InjectQueue } from '@nestjs/bullmq';
import { Controller, Get, Header } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Queue } from 'bullmq';
import { Registry } from 'prom-client';
import { MinRole } from '../roles/min-role.decorator';
import { CrmBudgetView } from '../crm/crm-budget-view';
import { ACTIONS_QUEUE, EVENTS_QUEUE, SWEEPS_QUEUE } from '../queues/queues';
import { EngineMetrics } from './engine-metrics';

@ApiTags('operations')
@MinRole('viewer') // Prometheus sends a viewer's API token (or ADMIN_TOKEN) as a Bearer
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: EngineMetrics,
    private readonly gateway: CrmBudgetView,
    @InjectQueue(EVENTS_QUEUE) private readonly events: Queue,
    @InjectQueue(ACTIONS_QUEUE) private readonly actions: Queue,
    @InjectQueue(SWEEPS_QUEUE) private readonly sweeps: Queue,
  ) {}

  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4')
  @ApiOperation({ summary: 'Prometheus metrics' })
  async scrape(): Promise<string> {
    for (const queue of [this.events, this.actions, this.sweeps]) {
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'prioritized');
      for (const [state, n] of Object.entries(counts))
        this.metrics.queueDepth.set({ queue: queue.name, state }, n);
    }
    return Registry.merge([this.metrics.registry, this.gateway.registry]).metrics();
  }
}
