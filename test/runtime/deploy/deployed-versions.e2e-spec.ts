// Deployed rule-set versions (issue 31) on real Postgres and a real git repository (a local path,
// through the git binary): two RuleSetServices stand for two processes; a valid commit activates
// on both through NOTIFY, a commit naming an unknown tag is refused with its problem at
// file:line:col, rollback and pin hold. The CRM directory is a fixed snapshot here; the live
// sandbox's directory is checked in rules-from-git.e2e-spec.ts.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import type { AppConfig } from '../../../src/runtime/config/app-config';
import type { LiveDirectory } from '../../../src/language/crm-terms/live-directory';
import { emptySnapshot } from '../../../src/language/crm-terms/crm-snapshot';
import { DeployedVersions } from '../../../src/runtime/rule-set/deploy/deployed-versions.service';
import { GitRulesSync } from '../../../src/runtime/rule-set/deploy/git-rules-sync.service';
import { RuleSetVersionsRepository } from '../../../src/runtime/rule-set/deploy/rule-set-versions.repository';
import { RuleSetService } from '../../../src/runtime/rule-set/rule-set.service';
import { createTestDb, type TestDb } from '../../support/test-db';

const rule = (tag: string) => `rule: welcome\non: contact.created\ndo:\n  - add-tag: ${tag}\n`;
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Ops', '-c', 'user.email=ops@example.test', ...args], {
    cwd,
  }).toString();

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 20));
}

describe('deployed rule-set versions', () => {
  let db: TestDb;
  let repoDir: string;
  let cacheDir: string;
  const processes: { rules: RuleSetService; deployed: DeployedVersions }[] = [];
  let versions: RuleSetVersionsRepository;
  let sync: GitRulesSync;
  const snapshot = emptySnapshot('test');

  const commit = (tag: string, message: string): string => {
    writeFileSync(join(repoDir, 'rules', 'welcome.yaml'), rule(tag));
    git(repoDir, 'add', '-A');
    git(repoDir, 'commit', '-q', '-m', message);
    return git(repoDir, 'rev-parse', 'HEAD').trim();
  };

  beforeAll(async () => {
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    db = await createTestDb();
    repoDir = mkdtempSync(join(tmpdir(), 'rules-repo-'));
    cacheDir = mkdtempSync(join(tmpdir(), 'rules-cache-'));
    git(repoDir, 'init', '-q', '-b', 'main');
    execFileSync('mkdir', ['-p', join(repoDir, 'rules')]);
    const config = {
      databaseUrl: db.url,
      rulesDir: '/nonexistent',
      rulesWatch: false,
      httpAction: { allowedHosts: [] },
      rulesGit: {
        url: repoDir,
        ref: 'main',
        subdir: 'rules',
        intervalMs: 60_000,
        cacheDir,
        timeoutMs: 30_000,
      },
    } as unknown as AppConfig;
    snapshot.tags = [
      { id: 't1', name: 'welcomed' },
      { id: 't2', name: 'vip' },
    ];
    const directory = { snapshot: async () => snapshot } as LiveDirectory;
    versions = new RuleSetVersionsRepository(db.dataSource);
    for (let i = 0; i < 2; i++) {
      const s = new GitRulesSync(config, versions, directory, db.dataSource);
      if (i === 0) sync = s;
      const deployed = new DeployedVersions(config, versions, s, directory);
      processes.push({ rules: new RuleSetService(config, deployed), deployed });
    }
    commit('welcomed', 'first rules');
    for (const p of processes) await p.rules.onModuleInit();
  });

  afterAll(async () => {
    for (const p of processes) {
      p.rules.onModuleDestroy();
      await p.deployed.onModuleDestroy();
    }
    await db?.drop();
    rmSync(repoDir, { recursive: true, force: true });
    rmSync(cacheDir, { recursive: true, force: true });
    jest.restoreAllMocks();
  });

  const commits = () => processes.map((p) => p.rules.status().commit);

  it('starts every process on the first fetched commit, recorded with author and message', async () => {
    const active = await versions.active();
    expect(active).toMatchObject({ status: 'activated', source: 'git', message: 'first rules' });
    expect(active!.author).toBe('Ops <ops@example.test>');
    expect(active!.files).toEqual({ 'welcome.yaml': rule('welcomed') });
    expect(commits()).toEqual([active!.commit, active!.commit]);
    expect(processes[1].rules.status()).toMatchObject({ commit: active!.commit, source: 'git' });
  });

  it('switches every process to a valid pushed commit, and keeps rule versions when only a comment changed', async () => {
    const before = processes[0].rules.current()!;
    writeFileSync(join(repoDir, 'rules', 'welcome.yaml'), `# a comment\n${rule('welcomed')}`);
    git(repoDir, 'commit', '-qam', 'comment only');
    const sha = git(repoDir, 'rev-parse', 'HEAD').trim();
    expect(await sync.sync('webhook')).toEqual({ kind: 'activated', commit: sha });
    await until(() => commits().every((c) => c === sha));
    expect(processes[1].rules.current()!.rules[0].version).toBe(before.rules[0].version);
    expect(processes[1].rules.current()!.version).toBe(before.version);
  });

  it('refuses a commit naming a tag the CRM lacks, with the problem at file:line:col, and keeps the active one', async () => {
    const running = commits()[0];
    const bad = commit('noreply', 'typo');
    expect(await sync.sync('webhook')).toEqual({ kind: 'refused', commit: bad });
    const row = await versions.byCommit(bad);
    expect(row!.status).toBe('refused');
    expect(row!.report).toContainEqual(
      expect.objectContaining({
        file: 'welcome.yaml',
        line: 4,
        severity: 'error',
        message: expect.stringContaining('noreply'),
      }),
    );
    expect(commits()).toEqual([running, running]);
    expect((await versions.active())!.commit).toBe(running);
  });

  it('rolls back to the previous version everywhere, and a pin holds the version until unpinned', async () => {
    const [first] = (await versions.history(10)).filter((v) => v.message === 'first rules');
    expect(await versions.activate(first.commit, 'operator', { action: 'rollback' })).toBe(true);
    await until(() => commits().every((c) => c === first.commit));

    expect(await versions.pin(first.commit, 'operator')).toBe(true);
    const pushed = commit('vip', 'vip instead');
    expect(await sync.sync('interval')).toEqual({ kind: 'held-by-pin', commit: pushed });
    await new Promise((r) => setTimeout(r, 200));
    expect(commits()).toEqual([first.commit, first.commit]);

    await versions.unpin('operator');
    const held = await versions.newestHeldBack();
    expect(held!.commit).toBe(pushed);
    expect(await versions.activate(pushed, 'unpin', { action: 'activate' })).toBe(true);
    await until(() => commits().every((c) => c === pushed));
    const audit = (await versions.audit(20)).map((a) => a.action);
    expect(audit).toEqual(expect.arrayContaining(['refuse', 'rollback', 'pin', 'unpin', 'activate']));
  });

  it('keeps the active version and says so while git is unreachable, and catches up when it is back', async () => {
    const running = commits()[0];
    const moved = `${repoDir}-away`;
    execFileSync('mv', [repoDir, moved]);
    const outcome = await sync.sync('interval');
    expect(outcome.kind).toBe('unreachable');
    expect(await processes[1].deployed.gitUnreachable()).toMatchObject({ message: expect.any(String) });
    expect(commits()).toEqual([running, running]);
    execFileSync('mv', [moved, repoDir]);
    const back = commit('welcomed', 'back again');
    expect(await sync.sync('interval')).toEqual({ kind: 'activated', commit: back });
    await until(() => commits().every((c) => c === back));
    expect(await processes[1].deployed.gitUnreachable()).toBeUndefined();
  });

  it('raises names drift when the CRM loses a name an active rule uses', async () => {
    const [p] = processes;
    expect(await p.deployed.checkNames('test')).toEqual([]);
    snapshot.tags = snapshot.tags.filter((t) => t.name !== 'welcomed');
    const missing = await p.deployed.checkNames('directory refresh');
    expect(missing).toEqual([
      expect.objectContaining({
        kind: 'tag',
        at: 'welcome.yaml:4:14',
        message: expect.stringContaining('"welcomed"'),
      }),
    ]);
    expect(p.deployed.missingNames()).toEqual(missing);
  });
});
