import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { AccessModule } from './operator/access/access.module';
import { ExecutionModule } from './pipeline/execution/execution.module';
import { AdminModule } from './operator/admin/admin.module';
import { QueueBoardModule } from './operator/admin/queue-board.module';
import { AppConfig } from './runtime/config/app-config';
import { ConfigModule } from './runtime/config/config.module';
import { ConsoleModule } from './operator/console/console.module';
import { dataSourceOptions } from './persistence/schema/data-source';
import { EventsWorkerModule } from './pipeline/events-worker/events-worker.module';
import { IntakeModule } from './pipeline/intake/intake.module';
import { loggerOptions } from './operator/ops/logger-options';
import { MetricsModule } from './operator/ops/metrics.module';
import { HealthModule } from './operator/ops/health.module';
import { RetentionModule } from './persistence/retention/retention.module';
import { redisConnection } from './runtime/queues/redis-connection';
import { SegmentsModule } from './pipeline/segments/segments.module';
import { BulkRunsWorkModule } from './pipeline/bulk-runs/bulk-runs.module';
import { DeployModule } from './runtime/rule-set/deploy/deploy.module';
import { LiveSnapshotModule } from './tooling/toolchain/live-snapshot.module';

@Module({})
export class AppModule {
  /** ROLE decides what this process does: api (intake + admin), worker (queues), scheduler (cron, reconciler). */
  static forRoot(config: AppConfig, logDestination?: DestinationStream): DynamicModule {
    const withApi = config.role === 'all' || config.role === 'api';
    const withWorkers = config.role === 'all' || config.role === 'worker';
    const withScheduler = config.role === 'all' || config.role === 'scheduler';
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot(loggerOptions(config, logDestination)),
        MetricsModule,
        LiveSnapshotModule,
        DeployModule.register(withWorkers, withScheduler),
        AccessModule,
        TypeOrmModule.forRoot(dataSourceOptions(config.databaseUrl, {}, config.databasePoolMax)),
        BullModule.forRoot({ connection: redisConnection(config.redis.url), prefix: config.redis.prefix }),
        ScheduleModule.forRoot(),
        EventsWorkerModule.register(withWorkers, withScheduler),
        ExecutionModule.register(withWorkers),
        SegmentsModule.register(withWorkers, withScheduler),
        BulkRunsWorkModule.register(withWorkers, withScheduler),
        RetentionModule.register(withWorkers, withScheduler),
        HealthModule,
        ...(withApi ? [IntakeModule, AdminModule, QueueBoardModule.register(), ConsoleModule] : []),
      ],
    };
  }
}
