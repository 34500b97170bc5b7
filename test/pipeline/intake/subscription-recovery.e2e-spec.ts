// Issue 30, "subscription lost quietly": while the engine cannot be reached the CRM (the sandbox,
// as docs/CRM-API.md §6 says of the real one: 12 consecutive failures) disables the webhook
// subscription. While it is disabled /health (detail), the console and a metric say so; the
// periodic check (a BullMQ job scheduler) and a restart both recreate it, and later events run.
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import type { Server } from 'node:http';
import { DataSource } from 'typeorm';
import { startEngine, type RunningEngine } from '../../../src/engine';
import { SUBSCRIPTION_CHECK_QUEUE } from '../../../src/pipeline/intake/subscription-check.processor';
import {
  ADMIN_TOKEN,
  admin,
  crm,
  eventually,
  Harness,
  newContact,
  startHarness,
} from '../../support/engine-harness';
import { consoleLogIn } from '../../support/console-client';
import { request } from '../../support/http';

jest.setTimeout(180_000);

const RULE = `rule: tag-new
on: contact.created
if: { fact: contact.name, operator: matches, value: "^Sub" }
do:
  - add-tag: vip
`;

describe('a webhook subscription the CRM disabled is said and recreated', () => {
  let h: Harness;
  let engine: RunningEngine;
  let db: DataSource;

  beforeAll(async () => {
    h = await startHarness({
      rules: { 'tag.yaml': RULE },
      env: { RULES_WATCH: 'false', WEBHOOK_SUBSCRIPTION_CHECK_MS: '3000' },
    });
    engine = h;
    db = h.app.get(DataSource);
  });
  afterAll(async () => {
    if (engine !== h) await engine.app.close();
    await h?.stop();
  });

  const webhooks = async () =>
    (await crm(h, 'GET', '/v1/webhooks')).body.data as { id: string; enabled: boolean }[];
  const tagged = (id: string) =>
    eventually(async () => {
      const c = await crm(h, 'GET', `/v1/contacts/${id}`);
      return c.body.tags.some((t: { name: string }) => t.name === 'vip');
    }, 60_000);
  /** Contacts created until the CRM has disabled every subscription (each delivery retried 6 times). */
  const createUntilDisabled = async (prefix: string) => {
    for (let i = 0; !(await webhooks()).every((w) => !w.enabled); i++) {
      if (i < 2) await newContact(h, `${prefix} ${i}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const health = async (url: string) => (await admin({ ...h, url }, 'GET', '/health?detail=full')).body;

  it('is said while disabled (health, console, metric) and recreated by the periodic check', async () => {
    await tagged((await newContact(h, 'Sub Before')).id);
    // Hold the periodic check back, so the disabled state can be seen before it is repaired.
    const checks = h.app.get<Queue>(getQueueToken(SUBSCRIPTION_CHECK_QUEUE));
    await checks.pause();
    // The engine unreachable (its listener closed): every delivery fails.
    const server = h.app.getHttpServer() as Server;
    const port = (server.address() as { port: number }).port;
    await new Promise((r) => {
      server.close(r);
      server.closeAllConnections();
    });
    await createUntilDisabled('Sub Lost');
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));

    const said = await eventually(async () => {
      const body = await health(h.url);
      return body.subscription?.delivering === false ? body.subscription : undefined;
    });
    expect(said).toEqual(expect.objectContaining({ status: 'disabled', delivering: false }));
    const page = await (await consoleLogIn(h.url)).get('/console');
    expect(page.html).toContain('id="delivery-problem"');
    const metrics = await request(`${h.url}/metrics`, 'GET', { headers: { 'x-admin-token': ADMIN_TOKEN } });
    expect(String(metrics.body)).toMatch(/crmr_webhook_subscription_delivering 0/);

    await checks.resume();
    await eventually(async () => (await health(h.url)).subscription?.delivering === true, 60_000);
    expect((await webhooks()).filter((w) => w.enabled)).toHaveLength(1);
    await tagged((await newContact(h, 'Sub After Check')).id);
  });

  it('is recreated when the engine starts again after the outage, and later events are processed', async () => {
    const port = (h.app.getHttpServer().address() as { port: number }).port;
    await h.app.close(); // the engine stops; the CRM (sandbox) keeps running and delivering
    await createUntilDisabled('Sub Down');
    h.config.port = port; // the same address the CRM delivers to
    engine = await startEngine(h.config, { quiet: true });
    const enabled = (await webhooks()).filter((w) => w.enabled);
    expect(enabled).toHaveLength(1);
    db = engine.app.get(DataSource);
    const [row] = await db.query(
      `SELECT count(*)::int AS n FROM webhook_subscriptions WHERE id = $1 AND active`,
      [enabled[0].id],
    );
    expect(row.n).toBe(1);
    await tagged((await newContact(h, 'Sub After Restart')).id);
    expect((await health(engine.url)).subscription).toEqual(
      expect.objectContaining({ status: 'delivering', delivering: true }),
    );
  });
});
