// Hot reload end to end: a Nest module watching a real rules directory. A broken edit is
// refused and the last good set keeps running; a good edit, or SIGHUP, swaps the set.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { ConfigModule } from '../../src/runtime/config/config.module';
import { loadConfig } from '../../src/runtime/config/load-config';
import { RuleSetService } from '../../src/runtime/rule-set/rule-set.service';
import { RuleSetModule } from '../../src/runtime/rule-set/rule-set.module';

const rule = (tag: string) => `rule: tag-new\non: contact.created\ndo:\n  - add-tag: ${tag}\n`;

async function until(what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function boot(dir: string, watch: boolean): Promise<TestingModule> {
  const config = loadConfig({ RULES_DIR: dir, RULES_WATCH: String(watch) });
  const moduleRef = await Test.createTestingModule({
    imports: [ConfigModule.forRoot(config), RuleSetModule],
  }).compile();
  moduleRef.useLogger(false);
  return moduleRef.init();
}

describe('rules hot reload', () => {
  let dir: string;
  let moduleRef: TestingModule | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rules-e2e-'));
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(async () => {
    await moduleRef?.close();
    moduleRef = undefined;
    rmSync(dir, { recursive: true, force: true });
    jest.restoreAllMocks();
  });

  it('refuses to start the module on a broken rule set', async () => {
    writeFileSync(join(dir, 'a.yaml'), 'rule: x\non: contact.nope\ndo: [block]\n');
    await expect(boot(dir, false)).rejects.toThrow(/a\.yaml:2:5: error: unknown event kind "contact\.nope"/);
  });

  it('keeps the running set when a file is broken, and swaps when it is fixed', async () => {
    writeFileSync(join(dir, 'a.yaml'), rule('first'));
    moduleRef = await boot(dir, true);
    const rules = moduleRef.get(RuleSetService);
    const v1 = rules.current()!.version;

    writeFileSync(join(dir, 'a.yaml'), 'rule: tag-new\non: contact.created\ndo:\n  - add-tags: oops\n');
    await until(
      'the broken edit to be refused',
      () => rules.status().lastAttempt.reason === 'file change' && !rules.status().lastAttempt.ok,
    );
    expect(rules.current()!.version).toBe(v1);
    expect(rules.problems()).toEqual([
      expect.objectContaining({ file: join(dir, 'a.yaml'), line: 4, col: 5, code: 'unknown-action' }),
    ]);
    expect(rules.status().version).toBe(v1);

    // A rule test file is not a rule file: changing it reloads nothing.
    await new Promise((r) => setTimeout(r, 500)); // let late events of the previous write settle
    const attempt = rules.status().lastAttempt.at;
    writeFileSync(join(dir, 'a.test.yaml'), 'tests: []\n');
    await new Promise((r) => setTimeout(r, 600));
    expect(rules.status().lastAttempt.at).toBe(attempt);

    writeFileSync(join(dir, 'a.yaml'), rule('second'));
    await until('the fixed set to be swapped in', () => rules.current()!.version !== v1);
    expect(rules.current()!.rule('tag-new')!.actions).toEqual([{ type: 'add-tag', tag: 'second' }]);
    expect(rules.status().lastAttempt.ok).toBe(true);
  }, 30_000);

  it('reloads on SIGHUP sent to the process', async () => {
    writeFileSync(join(dir, 'a.yaml'), rule('first'));
    const child = spawn(
      process.execPath,
      [
        '-r',
        'ts-node/register/transpile-only',
        join(__dirname, '..', 'language', 'rules', 'support', 'sighup-child.ts'),
        dir,
      ],
      {
        cwd: process.cwd(),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      let out = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      await until('the child to load the rules', () => /^ready \w+$/m.test(out), 30_000);
      const v1 = /^ready (\w+)$/m.exec(out)![1];
      writeFileSync(join(dir, 'a.yaml'), rule('after-hup'));
      await new Promise((r) => setTimeout(r, 300));
      expect(out).not.toMatch(/^version /m); // not watching: an edit alone changes nothing
      child.kill('SIGHUP');
      await until('SIGHUP to reload the set', () => /^version \w+$/m.test(out));
      expect(/^version (\w+)$/m.exec(out)![1]).not.toBe(v1);
      expect(child.exitCode).toBeNull(); // the signal reloaded; it did not end the process
    } finally {
      child.kill('SIGTERM');
    }
  }, 45_000);
});
