// The engine's segment machinery for the benchmark: config, metrics, TypeORM, BullMQ, the action
// runner and SegmentsModule (workers and scheduler), without HTTP. The CRM is a sandbox over HTTP.
import { BullModule } from '@nestjs/bullmq';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ExecutionModule } from '../src/pipeline/execution/execution.module';
import type { AppConfig } from '../src/runtime/config/app-config';
import { ConfigModule } from '../src/runtime/config/config.module';
import { dataSourceOptions } from '../src/persistence/schema/data-source';
import { MetricsModule } from '../src/operator/ops/metrics.module';
import { redisConnection } from '../src/runtime/queues/redis-connection';
import { SegmentsModule } from '../src/pipeline/segments/segments.module';

export async function startSegmentsApp(config: AppConfig): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(
    {
      module: class SegmentsBenchApp {},
      imports: [
        ConfigModule.forRoot(config),
        MetricsModule,
        TypeOrmModule.forRoot(dataSourceOptions(config.databaseUrl)),
        BullModule.forRoot({ connection: redisConnection(config.redis.url), prefix: config.redis.prefix }),
        ScheduleModule.forRoot(),
        ExecutionModule.register(true),
        SegmentsModule.register(true, true),
      ],
    },
    { logger: ['error'], abortOnError: false },
  );
  app.enableShutdownHooks();
  return app;
}
