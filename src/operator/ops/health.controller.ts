import { InjectQueue } from '@nestjs/bullmq';
import { Controller, Get, Req, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  HealthCheckService,
  HealthIndicatorService,
  type HealthCheckResult,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import { Queue } from 'bullmq';
import type { Request, Response } from 'express';
import { authenticate } from '../access/access.guard';
import { AccessService } from '../access/access.service';
import { MinRole } from '../roles/min-role.decorator';
import { EVENTS_QUEUE } from '../../runtime/queues/queue-jobs';
import { RuleSetService } from '../../runtime/rule-set/rule-set.service';
import { ModuleRef } from '@nestjs/core';
import { DELIVERY_HEALTH, type DeliveryHealth } from './delivery-health';
import { DeployedVersions } from '../../runtime/rule-set/deploy/deployed-versions.service';
import { DataSource } from 'typeorm';
import { LedgerPartitionMaintenance } from '../../persistence/partitions/ledger-partition-maintenance';

/**
 * GET /health: anyone (a load balancer) learns up or down, 200 or 503, and nothing else: no
 * credential is read, so the answer is the same with a right, a wrong or no token. What is down
 * and why (versions, counts, error messages) is the detail level, GET /health?detail=full, which
 * takes a viewer's credential (checked through the one throttle; wrong: 401).
 */
@ApiTags('operations')
@MinRole('public')
@Controller('health')
export class HealthController {
  constructor(
    private readonly access: AccessService,
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    private readonly rules: RuleSetService,
    @InjectQueue(EVENTS_QUEUE) private readonly events: Queue,
    private readonly moduleRef: ModuleRef,
    private readonly deployed: DeployedVersions,
    private readonly dataSource: DataSource,
  ) {}

  @Get()
  @ApiOperation({
    summary:
      'Up or down, the same for everyone; ?detail=full with a viewer credential also Postgres, Redis and the rule set',
  })
  async check(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const detail = req.query.detail === 'full';
    if (detail) await authenticate(this.access, req, res);
    let result: HealthCheckResult;
    try {
      result = await this.runChecks();
    } catch (err) {
      if (!(err instanceof ServiceUnavailableException)) throw err;
      result = err.getResponse() as HealthCheckResult;
      res.status(503);
    }
    return detail
      ? { ...result, ...(await this.delivery()), partitions: await this.partitions() }
      : { status: result.status };
  }

  /**
   * Webhook delivery, in the detail only (api processes): `subscription.delivering` false while
   * the CRM has disabled or lost the subscription. It does not turn the probe 503: a load balancer
   * taking every api process out would stop the intake too; the metric and alert say it instead.
   */
  private async delivery(): Promise<{ subscription?: unknown }> {
    let delivery: DeliveryHealth;
    try {
      delivery = this.moduleRef.get<DeliveryHealth>(DELIVERY_HEALTH, { strict: false });
    } catch {
      return {};
    }
    // A part of the detail that cannot be read says so; the probe's answer stands.
    return { subscription: await delivery.state().catch((err: Error) => ({ error: err.message })) };
  }

  /** The ledger's daily partitions, in the detail: days present, rows outside every day (docs/RELIABILITY.md). */
  private async partitions(): Promise<unknown> {
    try {
      return await new LedgerPartitionMaintenance(this.dataSource).view();
    } catch (err) {
      return { error: (err as Error).message };
    }
  }

  private runChecks(): Promise<HealthCheckResult> {
    return this.health.check([
      () => this.db.pingCheck('postgres', { timeout: 2000 }),
      async () => {
        const redis = this.indicators.check('redis');
        try {
          const client = (await this.events.client) as unknown as { ping(): Promise<string> };
          const pong = await Promise.race([
            client.ping(),
            new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000)),
          ]);
          return pong === 'PONG' ? redis.up() : redis.down({ message: 'unexpected reply' });
        } catch (err) {
          return redis.down({ message: (err as Error).message });
        }
      },
      async () => {
        const rules = this.indicators.check('rules');
        const status = this.rules.status();
        const unreachable = await this.deployed.gitUnreachable().catch(() => undefined);
        const info = {
          version: status.version,
          // Each process's deployed version: a fleet that has not switched together shows it here.
          commit: status.commit,
          source: status.source,
          ruleCount: status.ruleCount,
          lastReloadOk: status.lastAttempt?.ok,
          // Could not load the active version: this process keeps the one it had, and says why.
          ...(status.lastAttempt.ok ? {} : { lastReloadProblem: status.lastAttempt.problems[0]?.message }),
          ...(unreachable ? { git: { reachable: false, ...unreachable } } : {}),
        };
        return this.rules.current() ? rules.up(info) : rules.down(info);
      },
    ]);
  }
}
