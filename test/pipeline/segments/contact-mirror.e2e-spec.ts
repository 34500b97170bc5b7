import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import IORedis from 'ioredis';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../../src/runtime/config/app-config';
import { loadConfig } from '../../../src/runtime/config/load-config';
import type { Contact } from '@crm-rules/crm-contract';
import { startSandbox, type RunningSandbox } from '@crm-rules/crm-sandbox';
import { ContactMirrorService } from '../../../src/pipeline/contact-mirror/contact-mirror.service';
import { eventually } from '../../support/polling';
import { bigFixture } from './support/big-fixture';
import { mirrorContext } from './support/mirror-context';
import { createTestDb, type TestDb } from '../../support/test-db';
import { KEYS } from '../../support/demo-fixture';
import { call } from '../../support/http';

jest.setTimeout(120_000);

const GENERATED = 2490; // + 10 demo contacts = 2500 = 25 pages
const PAGES = 25;
const LIST = 'GET /v1/contacts';
const PREFIX = `crmr-test-${process.pid}-${Date.now()}-mirror`;

describe('the contact mirror', () => {
  let db: TestDb;
  let crm: RunningSandbox;
  let config: AppConfig;
  let app: INestApplicationContext;
  const children: ChildProcess[] = [];

  const listCalls = async (): Promise<number> =>
    (await call<Record<string, number>>(crm, 'GET', '/_sandbox/counters', { key: null })).body[LIST] ?? 0;
  const cursor = async (): Promise<number | null> =>
    (await db.dataSource.query(`SELECT full_sync_page FROM contact_mirror_state`))[0]?.full_sync_page ?? null;

  /** How many mirror upserts `fn` sends to Postgres (the app's own pool, observed, not replaced). */
  const statementsOf = async (fn: () => Promise<void>): Promise<number> => {
    const spy = jest.spyOn(app.get(DataSource), 'query');
    try {
      await fn();
      return spy.mock.calls.filter(([sql]) => String(sql).includes('INSERT INTO contact_mirror AS c')).length;
    } finally {
      spy.mockRestore();
    }
  };

  beforeAll(async () => {
    db = await createTestDb();
    crm = await startSandbox({
      port: 0,
      fixture: bigFixture(GENERATED),
      rateLimit: { limit: 100_000, windowMs: 60_000 },
    });
    config = loadConfig({
      ...process.env,
      CRM_BASE_URL: crm.url,
      CRM_API_KEY: KEYS.full,
      DATABASE_URL: db.url,
      REDIS_PREFIX: PREFIX,
      LOG_LEVEL: 'error',
      // 10 calls a second: slow enough to kill the child in the middle of the full sync.
      CRM_RATE_LIMIT: '10',
      CRM_RATE_WINDOW_MS: '1000',
    });
    app = await mirrorContext(config);
  });
  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL');
    await app?.close();
    await crm?.close();
    await db?.drop();
    const redis = new IORedis(config.redis.url, { maxRetriesPerRequest: null });
    const keys = await redis.keys(`${PREFIX}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  // The next page is read while the current one is written: a kill loses at most those two reads.
  it('resumes a full sync killed mid-way, redoing at most the two pages in flight', async () => {
    const child = spawn(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', join(__dirname, 'support', 'mirror-sync-child.ts')],
      {
        cwd: join(__dirname, '..', '..', '..'),
        env: {
          ...process.env,
          CRM_BASE_URL: crm.url,
          CRM_API_KEY: KEYS.full,
          DATABASE_URL: db.url,
          REDIS_PREFIX: PREFIX,
          CRM_RATE_LIMIT: '10',
          CRM_RATE_WINDOW_MS: '1000',
          LOG_LEVEL: 'error',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    children.push(child);
    await eventually(async () => ((await cursor()) ?? 0) >= 6, 60_000, 20);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const killedAt = (await cursor())!;
    const callsBefore = await listCalls();
    const [{ n: kept }] = await db.dataSource.query(`SELECT count(*)::int AS n FROM contact_mirror`);
    expect(killedAt).toBeLessThan(PAGES);
    expect(kept).toBe((killedAt - 1) * 100); // every committed page, nothing of the page in flight

    const result = await app.get(ContactMirrorService).refresh();
    expect(result).toMatchObject({ kind: 'full', pagesRead: PAGES, listCalls: PAGES - killedAt + 1 });
    expect(callsBefore + (PAGES - killedAt + 1)).toBeLessThanOrEqual(PAGES + 2);
    expect(await listCalls()).toBeLessThanOrEqual(PAGES + 2);

    const [{ n }] = await db.dataSource.query(`SELECT count(*)::int AS n FROM contact_mirror`);
    expect(n).toBe(GENERATED + 10);
    expect(await cursor()).toBeNull();
  });

  it('then reads only what is new, newest first, down to the watermark', async () => {
    const before = await listCalls();
    const created: Contact = (
      await call<Contact>(crm, 'POST', '/v1/contacts', { body: { name: 'Newest', phone: '351910000001' } })
    ).body;
    const result = await app.get(ContactMirrorService).refresh();
    expect(result).toMatchObject({ kind: 'incremental', listCalls: 1 });
    expect(await listCalls()).toBe(before + 1);
    const [row] = await db.dataSource.query(`SELECT country, phone FROM contact_mirror WHERE id = $1`, [
      created.id,
    ]);
    expect(row).toEqual({ country: 'PT', phone: '351910000001' });
  });

  it('applies contact webhooks: newer versions win, deletions remove the row and stay removed', async () => {
    const mirror = app.get(ContactMirrorService);
    const [row] = await db.dataSource.query(`SELECT raw FROM contact_mirror WHERE name = 'Generated 7'`);
    const contact: Contact = row.raw;
    await mirror.applyEvent('contact.updated', {
      ...contact,
      name: 'Renamed',
      updatedAt: new Date(Date.parse(contact.updatedAt) + 1000).toISOString(),
    });
    await mirror.applyEvent('contact.updated', {
      ...contact,
      name: 'Stale',
      updatedAt: new Date(Date.parse(contact.updatedAt) - 1000).toISOString(),
    });
    expect(
      (await db.dataSource.query(`SELECT name FROM contact_mirror WHERE id = $1`, [contact.id]))[0].name,
    ).toBe('Renamed');

    await mirror.applyEvent('contact.deleted', { id: contact.id });
    // A list page read before the deletion must not bring it back.
    await mirror.applyEvent('contact.created', contact);
    expect(await db.dataSource.query(`SELECT id FROM contact_mirror WHERE id = $1`, [contact.id])).toEqual(
      [],
    );
    const freshness = await mirror.freshness();
    expect(freshness.lastEventAt).not.toBeNull();
    expect(freshness.contacts).toBe(GENERATED + 10);
  });

  it('batches concurrent webhook upserts: the newest copy of a contact wins, a refused payload fails alone', async () => {
    const mirror = app.get(ContactMirrorService);
    const rows = await db.dataSource.query(
      `SELECT raw FROM contact_mirror WHERE name IN ('Generated 8', 'Generated 9') ORDER BY name`,
    );
    const [a, b]: Contact[] = rows.map((r: { raw: Contact }) => r.raw);
    const at = (c: Contact, ms: number) => new Date(Date.parse(c.updatedAt) + ms).toISOString();
    const nameOf = async (id: string) =>
      (await db.dataSource.query(`SELECT name FROM contact_mirror WHERE id = $1`, [id]))[0].name;

    // Submitted in one turn: one statement. The newer copy of `a` comes first, so "the last
    // submitted wins" would be wrong.
    const one = await statementsOf(async () => {
      const results = await Promise.all([
        mirror.applyEvent('contact.updated', { ...a, name: 'Newer', updatedAt: at(a, 2000) }),
        mirror.applyEvent('contact.updated', { ...a, name: 'Older', updatedAt: at(a, 1000) }),
        mirror.applyEvent('contact.updated', { ...b, name: 'B renamed', updatedAt: at(b, 1000) }),
      ]);
      expect(results).toEqual([null, null, null]);
    });
    expect(one).toBe(1);
    expect([await nameOf(a.id), await nameOf(b.id)]).toEqual(['Newer', 'B renamed']);

    // A NUL in a JSON string is refused by Postgres (22P05): the batch fails, each is written alone.
    const fallback = await statementsOf(async () => {
      const results = await Promise.all([
        mirror.applyEvent('contact.updated', { ...a, name: 'Newest', updatedAt: at(a, 3000) }),
        mirror.applyEvent('contact.updated', { ...b, name: 'bad\u0000name', updatedAt: at(b, 2000) }),
      ]);
      expect(results[0]).toBeNull();
      expect(results[1]).toMatch(/Postgres refused the payload/);
    });
    expect(fallback).toBe(3);
    expect([await nameOf(a.id), await nameOf(b.id)]).toEqual(['Newest', 'B renamed']);
  });

  it('lets two concurrent refreshes share one read of the CRM', async () => {
    const before = await listCalls();
    const mirror = app.get(ContactMirrorService);
    const results = await Promise.all([mirror.refresh(), mirror.refresh()]);
    expect(results.map((r) => r.kind).sort()).toEqual(['incremental', 'shared']);
    expect(await listCalls()).toBe(before + 1);
  });
});
