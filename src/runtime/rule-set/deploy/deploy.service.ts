// The operators' deploy actions (admin API, CLI, console): status, history, rollback, pin, unpin,
// a fetch now, the diff of two versions. Each is one repository call that activates and notifies
// in one transaction, so every process switches together; refusals are answers, not exceptions.
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { redactGitUrl } from '../../config/load-rules-git-config';
import { RuleSetService } from '../rule-set.service';
import { DeployedVersions } from './deployed-versions.service';
import {
  RuleSetVersionsRepository,
  type RuleSetVersion,
  type RuleSetVersionSummary,
} from './rule-set-versions.repository';
import { RulesGitQueue } from './rules-git-queue.service';
import { diffVersions, type VersionDiff } from './version-diff';

export type DeployAnswer =
  { ok: true; commit?: string; note?: string } | { ok: false; status: 404 | 409; message: string };

/** With RULES_DIR each process reads its own directory: a version row cannot change what it runs. */
const DIRECTORY_SOURCE: DeployAnswer = {
  ok: false,
  status: 409,
  message: 'the rules come from RULES_DIR: change the directory (rollback and pin follow RULES_GIT_URL)',
};

@Injectable()
export class DeployService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly versions: RuleSetVersionsRepository,
    private readonly deployed: DeployedVersions,
    private readonly rules: RuleSetService,
    private readonly queue: RulesGitQueue,
  ) {}

  async status() {
    const git = this.config.rulesGit;
    const active = await this.versions.active();
    return {
      source: git
        ? { kind: 'git', url: redactGitUrl(git.url), ref: git.ref, subdir: git.subdir }
        : { kind: 'directory', dir: this.config.rulesDir },
      active: active ? withoutFiles(active) : null,
      pinned: (await this.versions.pinned()) ?? null,
      heldBack: (await this.versions.newestHeldBack())?.commit ?? null,
      thisProcess: this.rules.status(),
      git: await this.gitState(),
      missingNames: this.deployed.missingNames().map((m) => `${m.at} ${m.message}`),
    };
  }

  private async gitState() {
    if (!this.config.rulesGit) return undefined;
    const down = await this.deployed.gitUnreachable();
    return down ? { reachable: false, ...down } : { reachable: true };
  }

  history(limit: number): Promise<RuleSetVersionSummary[]> {
    return this.versions.history(limit);
  }

  version(commit: string) {
    return this.versions.byCommit(commit);
  }

  audit(limit: number) {
    return this.versions.audit(limit);
  }

  /** To `commit`, or to the version active before this one. Refused while a pin holds. */
  async rollback(commit: string | undefined, actor: string): Promise<DeployAnswer> {
    if (!this.config.rulesGit) return DIRECTORY_SOURCE;
    if (await this.versions.pinned())
      return { ok: false, status: 409, message: 'a pin holds the active version: unpin first' };
    const target = commit ? await this.versions.byCommit(commit) : await this.versions.previous();
    if (!target)
      return { ok: false, status: 404, message: commit ? `no version ${commit}` : 'no previous version' };
    if (target.status === 'refused')
      return { ok: false, status: 409, message: `${target.commit} was refused: it cannot be activated` };
    const done = await this.versions.activate(target.commit, actor, { action: 'rollback' });
    return done ? { ok: true, commit: target.commit } : { ok: false, status: 409, message: 'not activated' };
  }

  /** Activates `commit` if needed and holds it until unpin, whatever is pushed. */
  async pin(commit: string, actor: string): Promise<DeployAnswer> {
    if (!this.config.rulesGit) return DIRECTORY_SOURCE;
    const target = await this.versions.byCommit(commit);
    if (!target) return { ok: false, status: 404, message: `no version ${commit}` };
    if (target.status === 'refused')
      return { ok: false, status: 409, message: `${target.commit} was refused: it cannot be pinned` };
    if (target.status !== 'activated')
      await this.versions.activate(target.commit, actor, {
        action: 'rollback',
        overridePin: true,
        note: 'pin',
      });
    const pinned = await this.versions.pin(target.commit, actor);
    return pinned ? { ok: true, commit: target.commit } : { ok: false, status: 409, message: 'not pinned' };
  }

  /** Lifts the pin; the newest valid version fetched meanwhile becomes active at once. */
  async unpin(actor: string): Promise<DeployAnswer> {
    const was = await this.versions.unpin(actor);
    if (!was) return { ok: true, note: 'nothing was pinned' };
    const held = await this.versions.newestHeldBack();
    if (held)
      await this.versions.activate(held.commit, actor, { action: 'activate', note: 'held back by the pin' });
    return { ok: true, ...(held ? { commit: held.commit } : { commit: was }) };
  }

  /** A fetch now (the same job the webhook starts). */
  async fetch(actor: string): Promise<DeployAnswer> {
    if (!this.config.rulesGit) return { ok: false, status: 409, message: 'RULES_GIT_URL is not set' };
    await this.queue.fetchNow(actor, `manual-${Date.now()}`);
    return { ok: true, note: 'fetch queued' };
  }

  async diff(from: string, to: string): Promise<VersionDiff | undefined> {
    const [a, b] = [await this.versions.byCommit(from), await this.versions.byCommit(to)];
    return a && b ? diffVersions(a.files, b.files) : undefined;
  }
}

function withoutFiles(version: RuleSetVersion): RuleSetVersionSummary {
  const { files: _files, ...summary } = version;
  return summary;
}
