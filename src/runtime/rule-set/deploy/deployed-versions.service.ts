// What RuleSetService needs from the deployed versions (issue 31): with RULES_GIT_URL, the active
// row of rule_set_versions (every process loads it, and reloads on each NOTIFY); with RULES_DIR,
// the directory's content recorded as a version (its hash as the commit), so runs name it too.
import { createHash } from 'node:crypto';
import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { LIVE_DIRECTORY, type LiveDirectory } from '../../../language/crm-terms/live-directory';
import {
  loadRulesFromFiles,
  type LoadResult,
  type RuleFile,
} from '../../../language/rules/format/load-rules';
import { ActiveVersionListener } from './active-version-listener';
import { directoryVersion, versionFiles } from './directory-version';
import { GitRulesSync } from './git-rules-sync.service';
import { missingNames, type MissingName } from './names-drift';
import { RuleSetVersionsRepository } from './rule-set-versions.repository';

/** How often the API process re-checks the active rules' names (the directory's channel TTL). */
const DRIFT_CHECK_MS = 60_000;

export interface VersionLoad {
  result: LoadResult;
  commit?: string;
}

@Injectable()
export class DeployedVersions implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(DeployedVersions.name);
  private listener?: ActiveVersionListener;
  private missing: MissingName[] = [];
  /** The commit and directory the last check judged (sha256): the same pair gives the same answer. */
  private lastChecked?: string;
  private driftTimer?: NodeJS.Timeout;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly versions: RuleSetVersionsRepository,
    private readonly git: GitRulesSync,
    @Optional() @Inject(LIVE_DIRECTORY) private readonly directory?: LiveDirectory,
  ) {}

  /** The API process (console, alerts) re-checks names on the directory's refresh cadence. */
  onApplicationBootstrap(): void {
    if (this.config.role !== 'all' && this.config.role !== 'api') return;
    this.driftTimer = setInterval(() => void this.checkNames('directory refresh'), DRIFT_CHECK_MS);
    this.driftTimer.unref();
  }

  /** Names the active rules use that the live CRM lacks, as of the last check (console, metric, alert). */
  missingNames(): readonly MissingName[] {
    return this.missing;
  }

  /**
   * Checks the active version's names against the live directory and warns about each newly
   * missing one (a hot reload from RULES_DIR naming a tag the CRM lacks, or a tag deleted in the
   * CRM under a running rule). Never throws: a CRM that cannot be read leaves the last result.
   */
  async checkNames(reason: string): Promise<readonly MissingName[]> {
    if (!this.directory) return this.missing;
    try {
      const active = await this.versions.active();
      if (!active) return this.missing;
      const live = await this.directory.snapshot('live CRM');
      // Re-validating a whole rule set is seconds of CPU for hundreds of rules: only a new commit
      // or a changed directory can change the answer.
      const key = createHash('sha256')
        .update(active.commit)
        .update(JSON.stringify({ ...live, takenAt: '' }))
        .digest('hex');
      if (key === this.lastChecked) return this.missing;
      const found = missingNames(active.files, live);
      this.lastChecked = key;
      const known = new Set(this.missing.map((m) => `${m.at} ${m.message}`));
      for (const m of found.filter((x) => !known.has(`${x.at} ${x.message}`)))
        this.logger.warn(`names drift (${reason}): ${active.commit} ${m.at} ${m.message}`);
      this.missing = found;
    } catch (err) {
      this.logger.warn(`names drift check failed (${reason}): ${(err as Error).message}`);
    }
    return this.missing;
  }

  /** True when the rules follow git: load the active row, not RULES_DIR. */
  get followsGit(): boolean {
    return this.config.rulesGit !== undefined;
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.driftTimer);
    await this.listener?.stop();
  }

  /** Calls `onChange` on each activation (any process's) and after each reconnect. */
  async listen(onChange: (cause: string) => void): Promise<void> {
    this.listener = new ActiveVersionListener(this.config.databaseUrl, onChange);
    await this.listener.start();
  }

  /**
   * The active version, compiled. At the first start of a fleet there is none yet: this process
   * fetches once itself (the advisory lock lets one do it; the others find its row).
   */
  async loadActive(reason: string): Promise<VersionLoad> {
    let active = await this.versions.active();
    if (!active && reason === 'start-up') {
      const outcome = await this.git.sync('start-up');
      if (outcome.kind === 'unreachable') return { result: cannotLoad(`git: ${outcome.message}`) };
      active = await this.versions.active();
    }
    if (!active)
      return { result: cannotLoad('no active version in rule_set_versions (see crm-rules deploy status)') };
    const result = loadRulesFromFiles(versionFiles(active.files), {
      allowedHosts: this.config.httpAction.allowedHosts,
      secretHosts: this.config.httpAction.secretHosts,
    });
    return { result, commit: active.commit };
  }

  /** Records a directory's valid content as the active version; its commit id, or undefined on failure. */
  async recordDirectory(dir: string, files: RuleFile[], result: LoadResult): Promise<string | undefined> {
    const version = directoryVersion(dir, files, result.problems, result.ruleSet?.version ?? null);
    try {
      await this.versions.record(version, 'recorded', `directory ${dir}`);
      await this.versions.activate(version.commit, `directory ${dir}`, {
        action: 'activate',
        overridePin: true,
      });
    } catch (err) {
      // The set runs anyway: the directory is this process's source; only the record is missing.
      this.logger.warn(`cannot record rule set version ${version.commit}: ${(err as Error).message}`);
    }
    return version.commit;
  }

  /** While git is unreachable (fleet-wide state in the audit): since when and why; undefined otherwise. */
  async gitUnreachable(): Promise<{ since: string; message: string } | undefined> {
    return this.followsGit ? this.git.unreachable() : undefined;
  }
}

function cannotLoad(reason: string): LoadResult {
  return {
    problems: [
      {
        file: 'rule_set_versions',
        line: 1,
        col: 1,
        severity: 'error',
        code: 'io',
        message: `cannot load rules: ${reason}`,
      },
    ],
  };
}
