import { InjectQueue } from '@nestjs/bullmq';
import { Controller, Get, Inject, Req, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  HealthCheckService,
  HealthIndicatorService,
  type HealthCheckResult,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import { Queue } from 'bullmq';
import type { Request, Response } from 'express';
import { checkAdminRequest } from '../admin-auth/admin-token';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { EVENTS_QUEUE } from '../queues/queues';
import { RuleSetService } from '../rule-set/rule-set.service';
import { ModuleRef } from '@nestjs/core';
import { DELIVERY_HEALTH, type DeliveryHealth } from './delivery-health';
import { DeployedVersions } from '../rule-set/deploy/deployed-versions.service';

/**
 * GET /health: anyone (a load balancer) learns up or down, 200 or 503; what is down and why
 * (versions, counts, error messages) only with the admin token.
 */
@ApiTags('operations')
@Controller('health')
export class HealthController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    private readonly rules: RuleSetService,
    @InjectQueue(EVENTS_QUEUE) private readonly events: Queue,
    private readonly moduleRef: ModuleRef,
    private readonly deployed: DeployedVersions,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Up or down; with X-Admin-Token also Postgres, Redis and the rule set in detail' })
  async check(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    let result: HealthCheckResult;
    try {
      result = await this.runChecks();
    } catch (err) {
      if (!(err instanceof ServiceUnavailableException)) throw err;
      result = err.getResponse() as HealthCheckResult;
      res.status(503);
    }
    const admin = checkAdminRequest(req, this.config.adminToken, { allowBasic: false }).ok;
    return admin ? { ...result, ...(await this.delivery()) } : { status: result.status };
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
    return { subscription: await delivery.state() };
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
