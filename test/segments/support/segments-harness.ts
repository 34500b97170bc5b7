// An engine with the segments module for end-to-end tests: the real engine (startHarness) once
// AppModule imports SegmentsModule; until then the part of the engine segments need, composed
// here (config, metrics, TypeORM, BullMQ, schedule, the action runner and SegmentsModule), on its
// own database, Redis prefix and embedded sandbox, over HTTP. No webhook intake in that case:
// mirrorCatchesUp() hands contact events to the mirror the way the event pipeline will.
import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import IORedis from 'ioredis';
import { DataSource } from 'typeorm';
import { BullModule } from '@nestjs/bullmq';
import { ScheduleModule } from '@nestjs/schedule';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ActionsModule } from '../../../src/actions/actions.module';
import { AppModule } from '../../../src/app.module';
import { ConfigModule } from '../../../src/config/config.module';
import { dataSourceOptions } from '../../../src/db/data-source';
import { MetricsModule } from '../../../src/ops/ops.module';
import { redisConnection } from '../../../src/queues/redis-connection';
import type { AppConfig } from '../../../src/config/app-config';
import { loadConfig } from '../../../src/config/load-config';
import type { Contact } from '../../../src/crm/crm-types';
import { dropDatabase } from '../../../src/db/migrate';
import { startSandbox } from '../../../src/sandbox/start-sandbox';
import { ContactMirrorService } from '../../../src/segments/contact-mirror.service';
import { SegmentsModule } from '../../../src/segments/segments.module';
import {
  ADMIN_TOKEN,
  api,
  eventually,
  startHarness,
  tempRulesDir,
  testDatabaseUrl,
  type HarnessOptions,
} from '../../support/engine-harness';

export interface SegmentsHarness {
  app: INestApplication;
  url: string;
  sandboxUrl: string;
  config: AppConfig;
  db: DataSource;
  /** true: the real engine (AppModule imports SegmentsModule); false: composed here. */
  wired: boolean;
  stop(): Promise<void>;
}

export function appModuleHasSegments(config: AppConfig): boolean {
  return (AppModule.forRoot(config).imports ?? []).some(
    (m) => (m as { module?: unknown })?.module === SegmentsModule,
  );
}

export async function startSegmentsHarness(options: HarnessOptions = {}): Promise<SegmentsHarness> {
  const probe = loadConfig({ ...process.env, CRM_BASE_URL: '', CRM_API_KEY: '' });
  if (appModuleHasSegments(probe)) {
    const h = await startHarness(options);
    return {
      app: h.app,
      url: h.url,
      sandboxUrl: h.sandboxUrl,
      config: h.config,
      db: h.app.get(DataSource),
      wired: true,
      stop: h.stop,
    };
  }
  return startComposed(options);
}

async function startComposed(options: HarnessOptions): Promise<SegmentsHarness> {
  const databaseUrl = await testDatabaseUrl();
  const prefix = `crmr-test-${process.pid}-${randomUUID().slice(0, 8)}`;
  const config = loadConfig({
    ...process.env,
    CRM_BASE_URL: '',
    CRM_API_KEY: '',
    PUBLIC_URL: '',
    DATABASE_URL: databaseUrl,
    REDIS_PREFIX: prefix,
    RULES_DIR: tempRulesDir(options.rules),
    PORT: '0',
    ADMIN_TOKEN,
    LOG_LEVEL: 'error',
    ...options.env,
  });
  const sandbox = await startSandbox({ port: 0, webhookRetryBaseMs: 20, ...options.sandbox });
  config.crm.baseUrl = sandbox.url;
  const app = await NestFactory.create(
    {
      module: class SegmentsTestApp {},
      imports: [
        ConfigModule.forRoot(config),
        MetricsModule,
        TypeOrmModule.forRoot(dataSourceOptions(config.databaseUrl)),
        BullModule.forRoot({ connection: redisConnection(config.redis.url), prefix: config.redis.prefix }),
        ScheduleModule.forRoot(),
        ActionsModule.register(true),
        SegmentsModule.register(true, true),
      ],
    },
    { logger: ['error'], abortOnError: false },
  );
  await app.listen(0, config.host);
  const url = `http://${config.host}:${(app.getHttpServer().address() as { port: number }).port}`;
  return {
    app,
    url,
    sandboxUrl: sandbox.url,
    config,
    db: app.get(DataSource),
    wired: false,
    stop: async () => {
      await app.close();
      await sandbox.close();
      const redis = new IORedis(config.redis.url, { maxRetriesPerRequest: null });
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
      await dropDatabase(databaseUrl);
    },
  };
}

export const admin = (h: SegmentsHarness, method: string, path: string) =>
  api(h.url, method, path, undefined, { 'x-admin-token': ADMIN_TOKEN });
export const sandbox = (h: SegmentsHarness, method: string, path: string, body?: unknown) =>
  api(h.sandboxUrl, method, path, body, { authorization: 'Bearer sk_demo_full' });

/** The CRM's current contact, read on the control surface (not counted as an API call). */
export async function crmContact(h: SegmentsHarness, id: string): Promise<Contact> {
  return (await api(h.sandboxUrl, 'GET', `/_sandbox/state/contacts/${id}`)).body as Contact;
}

/**
 * Waits until the mirror holds the CRM's current version of a contact. Wired engines get it
 * from the contact.updated webhook through the event pipeline; the composed one is handed the
 * event the way the pipeline will hand it (ContactMirrorService.applyEvent).
 */
export async function mirrorCatchesUp(h: SegmentsHarness, id: string): Promise<void> {
  const contact = await crmContact(h, id);
  if (!h.wired) await h.app.get(ContactMirrorService).applyEvent('contact.updated', contact);
  const tags = contact.tags.map((t) => t.id).sort();
  await eventually(async () => {
    const [row] = await h.db.query(`SELECT tag_ids, stage_id, status FROM contact_mirror WHERE id = $1`, [
      id,
    ]);
    return (
      row &&
      JSON.stringify([...row.tag_ids].sort()) === JSON.stringify(tags) &&
      row.stage_id === contact.stageId &&
      row.status === contact.status
    );
  }, 15000).catch((err: Error) => {
    throw new Error(
      `the mirror did not catch up with contact ${id} (are contact.* webhooks subscribed?): ${err.message}`,
    );
  });
}

/** Write calls (anything but GET) the sandbox counted since the counters were last cleared. */
export async function writeCalls(h: SegmentsHarness): Promise<Record<string, number>> {
  const counters: Record<string, number> = (await api(h.sandboxUrl, 'GET', '/_sandbox/counters')).body;
  return Object.fromEntries(Object.entries(counters).filter(([route]) => !route.startsWith('GET ')));
}
