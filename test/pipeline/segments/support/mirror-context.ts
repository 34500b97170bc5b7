// The contact mirror alone in a Nest application context (config, TypeORM, gateway): what a
// worker runs for the mirror's part of a sweep. Used in-process and by mirror-sync-child.ts.
import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from '../../../../src/runtime/config/app-config';
import { ConfigModule } from '../../../../src/runtime/config/config.module';
import { dataSourceOptions } from '../../../../src/persistence/schema/data-source';
import { ContactMirrorModule } from '../../../../src/pipeline/contact-mirror/contact-mirror.module';

export function mirrorContext(config: AppConfig): Promise<INestApplicationContext> {
  return NestFactory.createApplicationContext(
    {
      module: class MirrorContext {},
      imports: [
        ConfigModule.forRoot(config),
        TypeOrmModule.forRoot(dataSourceOptions(config.databaseUrl, { extra: { max: 4 } })),
        ContactMirrorModule,
      ],
    },
    { logger: ['error'], abortOnError: false },
  );
}
