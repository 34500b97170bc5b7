// One deploy from git: fetch RULES_GIT_REF, validate the commit exactly as `crm-rules validate`
// does (loadRulesFromFiles, names against the live CRM directory instead of a snapshot file),
// record it, and activate it when valid and no pin holds another version. One process at a time
// (an advisory lock; the BullMQ job already makes it one job).
import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig, type RulesGitConfig } from '../../config/app-config';
import { LIVE_DIRECTORY, type LiveDirectory } from '../../../language/crm-terms/live-directory';
import { loadRulesFromFiles } from '../../../language/rules/format/load-rules';
import { withAdvisoryLock } from '../../../persistence/sql/advisory-locks.repository';
import { versionFiles } from './directory-version';
import { GitCheckout } from './git-checkout';
import { RuleSetVersionsRepository } from './rule-set-versions.repository';

export type SyncOutcome =
  | { kind: 'activated' | 'refused' | 'held-by-pin' | 'unchanged'; commit: string }
  | { kind: 'busy' }
  | { kind: 'unreachable'; message: string };

const SYNC_LOCK = 'crmr:rules-git-sync';

@Injectable()
export class GitRulesSync {
  private readonly logger = new Logger(GitRulesSync.name);
  private readonly checkout?: GitCheckout;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly versions: RuleSetVersionsRepository,
    @Inject(LIVE_DIRECTORY) private readonly directory: LiveDirectory,
    private readonly dataSource: DataSource,
  ) {
    if (config.rulesGit) this.checkout = new GitCheckout(config.rulesGit);
  }

  /** While git is unreachable (for the fleet, whichever process fetched): since when and why. */
  async unreachable(): Promise<{ since: string; message: string } | undefined> {
    const state = await this.versions.fetchState();
    return state?.action === 'fetch-failed'
      ? { since: new Date(state.at).toISOString(), message: state.note ?? '' }
      : undefined;
  }

  async sync(actor: string): Promise<SyncOutcome> {
    const git = this.config.rulesGit;
    if (!git || !this.checkout) return { kind: 'unreachable', message: 'RULES_GIT_URL is not set' };
    const outcome = await withAdvisoryLock(this.dataSource, SYNC_LOCK, false, () =>
      this.syncLocked(git, actor),
    );
    return outcome.acquired ? outcome.value : { kind: 'busy' };
  }

  private async syncLocked(git: RulesGitConfig, actor: string): Promise<SyncOutcome> {
    let fetched;
    try {
      fetched = await this.checkout!.fetch();
    } catch (err) {
      const message = (err as Error).message.slice(0, 500);
      // Audited once per outage, not per interval: the console shows when it began.
      await this.versions.recordFetch(false, actor, message);
      this.logger.warn(`cannot fetch the rules (${git.ref}); the active version keeps running: ${message}`);
      return { kind: 'unreachable', message };
    }
    await this.versions.recordFetch(true, actor, null);
    const known = await this.versions.byCommit(fetched.commit);
    if (known?.commit === fetched.commit) return { kind: 'unchanged', commit: fetched.commit };
    const snapshot = await this.directory.snapshot('live CRM');
    const result = loadRulesFromFiles(versionFiles(fetched.files), {
      snapshot,
      allowedHosts: this.config.httpAction.allowedHosts,
      secretHosts: this.config.httpAction.secretHosts,
    });
    const valid = result.ruleSet !== undefined;
    await this.versions.record(
      {
        commit: fetched.commit,
        source: 'git',
        author: fetched.author,
        message: fetched.message,
        files: fetched.files,
        report: result.problems,
        ruleSetVersion: result.ruleSet?.version ?? null,
      },
      valid ? 'recorded' : 'refused',
      actor,
    );
    if (!valid) {
      this.logger.error(
        `rules commit ${fetched.commit.slice(0, 12)} refused (${actor}): see /admin/deploy/history`,
      );
      return { kind: 'refused', commit: fetched.commit };
    }
    const activated = await this.versions.activate(fetched.commit, actor, { action: 'activate' });
    if (!activated)
      this.logger.warn(
        `rules commit ${fetched.commit.slice(0, 12)} recorded; a pin holds the active version`,
      );
    return { kind: activated ? 'activated' : 'held-by-pin', commit: fetched.commit };
  }
}
