// A pause set in one process reaches a worker in another process through Postgres NOTIFY (the
// worker's log names the cause), and that worker records the next event's run as `paused`.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { RuleControlsService } from '../../../src/runtime/rule-controls/rule-controls.service';
import { RunsRepository } from '../../../src/persistence/ledger/runs.repository';
import { eventually, Harness, newContact, startHarness } from '../../support/engine-harness';
import { contactEvent, deliver, TEST_WEBHOOK_SECRET } from '../../support/webhooks';

const ROOT = join(__dirname, '..', '..', '..');
const RULE = ['rule: tag-on-update', 'on: contact.updated', 'do:', '  - add-tag: touched', ''].join('\n');

describe('rule controls across processes', () => {
  let h: Harness;
  let worker: ChildProcess;
  const lines: string[] = [];

  beforeAll(async () => {
    // The worker runs the compiled engine (dist/), exactly as `npm start` would.
    const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`build failed: ${build.stderr}`);
    h = await startHarness({
      rules: { 'tag.yaml': RULE },
      subscribe: false,
      env: { ROLE: 'api', CRM_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET, RULES_WATCH: 'false' },
    });
    worker = spawn(process.execPath, [join(ROOT, 'dist', 'src', 'main.js')], {
      cwd: ROOT,
      env: {
        ...process.env,
        ROLE: 'worker',
        PORT: '0',
        DATABASE_URL: h.databaseUrl,
        REDIS_PREFIX: h.config.redis.prefix,
        RULES_DIR: h.rulesDir,
        RULES_WATCH: 'false',
        CRM_BASE_URL: h.sandboxUrl,
        CRM_API_KEY: 'sk_demo_full',
        PUBLIC_URL: '',
        ADMIN_TOKEN: '',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let buffer = '';
    worker.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const complete = buffer.split('\n');
      buffer = complete.pop()!;
      lines.push(...complete);
    });
    await eventually(async () => lines.some((l) => l.includes('engine listening')), 60_000, 100);
  }, 120_000);

  afterAll(async () => {
    if (worker && worker.exitCode === null) {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.kill('SIGTERM');
      await exited;
    }
    await h?.stop();
  });

  it('pauses on the second process through a NOTIFY, and that process then records paused', async () => {
    const controls = h.app.get(RuleControlsService);
    const before = lines.length;
    await controls.change('tag-on-update', 'pause', 'test', null);
    const seen = await eventually(
      async () => lines.slice(before).find((l) => l.includes('rule controls now: paused tag-on-update')),
      30_000,
      10,
    );
    // Pushed by the notification, not found at a reconnect or a restart.
    expect(seen).toMatch(/rule controls now: paused tag-on-update;[^"]*\(notification\)/);

    const contact = await newContact(h, 'Walter Worker');
    await deliver(h.url, JSON.stringify(contactEvent('contact.updated', contact)));
    const runs = h.app.get(RunsRepository);
    const run = await eventually(
      async () => (await runs.views.list({ contact: contact.id, limit: 5 }))[0],
      30_000,
    );
    expect(run).toEqual(expect.objectContaining({ status: 'suppressed', reason: 'paused' }));
  }, 60_000);
});
