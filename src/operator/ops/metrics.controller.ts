import { InjectQueue } from '@nestjs/bullmq';
import { Controller, Get, Header } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Queue } from 'bullmq';
import { Registry } from 'prom-client';
import { MinRole } from '../roles/min-role.decorator';
import { CrmBudgetView } from '../../outbound/crm-gateway/crm-budget-view';
import { ACTIONS_QUEUE, EVENTS_QUEUE, SWEEPS_QUEUE } from '../../runtime/queues/queue-jobs';
import { DeployedVersions } from '../../runtime/rule-set/deploy/deployed-versions.service';
import { RuleSetService } from '../../runtime/rule-set/rule-set.service';
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
    private readonly rules: RuleSetService,
    private readonly deployed: DeployedVersions,
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
    await this.rulesGauges();
    return Registry.merge([this.metrics.registry, this.gateway.registry]).metrics();
  }

  /** This process's deployed version (one label at 1: a mixed fleet shows several commits). */
  private async rulesGauges(): Promise<void> {
    const status = this.rules.status();
    this.metrics.rulesActiveCommit.reset();
    if (status.commit)
      this.metrics.rulesActiveCommit.set({ commit: status.commit, source: status.source }, 1);
    this.metrics.rulesInSync.set(status.lastAttempt.ok ? 1 : 0);
    // The fleet's state (the audit): every process says so, whichever one fetched.
    this.metrics.rulesMissingNames.reset();
    const byKind = new Map<string, number>();
    for (const m of this.deployed.missingNames()) byKind.set(m.kind, (byKind.get(m.kind) ?? 0) + 1);
    for (const [kind, n] of byKind) this.metrics.rulesMissingNames.set({ kind }, n);
    if (this.deployed.followsGit)
      this.metrics.rulesGitReachable.set(
        (await this.deployed.gitUnreachable().catch(() => undefined)) ? 0 : 1,
      );
  }
}
