import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { watch, type FSWatcher } from 'node:fs';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { CompiledRuleSet } from '../../language/matching/compiled-rule-set';
import { formatProblem, formatProblems } from '../../language/rules/format/format-problems';
import {
  cannotReadRules,
  isRuleTestFile,
  loadRulesFromDir,
  type LoadResult,
  type RuleFile,
} from '../../language/rules/format/load-rules';
import type { RuleProblem } from '../../language/rules/format/rule-types';
import { DeployedVersions } from './deploy/deployed-versions.service';

/** Editors save in bursts (write, rename, chmod): one reload per burst. */
export const RELOAD_DEBOUNCE_MS = 250;

export interface RuleSetStatus {
  version?: string;
  /** The deployed version running here: a git commit, or `dir-<hash>` of RULES_DIR (issue 31). */
  commit?: string;
  source: 'git' | 'directory';
  loadedAt?: string;
  ruleCount: number;
  lastAttempt: { at: string; ok: boolean; reason: string; problems: RuleProblem[] };
}

export interface ReloadResult {
  ok: boolean;
  /** The version running after the attempt (the previous one when the attempt failed). */
  version?: string;
  problems: RuleProblem[];
}

/**
 * Holds the running rule set. Loads it at start-up (refusing to start on a broken set), then
 * reloads on file change, SIGHUP or an admin call: a set that validates replaces the old one
 * in one reference assignment; one that does not is logged and exposed, and the last good
 * set keeps running.
 */
@Injectable()
export class RuleSetService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(RuleSetService.name);
  private set?: CompiledRuleSet;
  private loadedAt?: Date;
  private last: RuleSetStatus['lastAttempt'] = {
    at: new Date(0).toISOString(),
    ok: false,
    reason: 'none',
    problems: [],
  };
  private readonly listeners = new Set<(set: CompiledRuleSet) => void>();
  private watcher?: FSWatcher;
  private timer?: NodeJS.Timeout;
  // Reloads run one after the other, so a slow one never overwrites a newer one.
  private queue: Promise<unknown> = Promise.resolve();
  private readonly onSighup = () => void this.reload('SIGHUP');
  // Settled by the first set installed: a worker's queues may hand it jobs before onModuleInit
  // (module hooks run one module after another), and an event matched against no set is lost.
  private installFirst!: (set: CompiledRuleSet) => void;
  private readonly first = new Promise<CompiledRuleSet>((resolve) => (this.installFirst = resolve));

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    // Absent in tests that build the rules module alone: then RULES_DIR, nothing recorded.
    @Optional() private readonly deployed?: DeployedVersions,
  ) {}

  private get followsGit(): boolean {
    return this.deployed?.followsGit ?? false;
  }

  async onModuleInit(): Promise<void> {
    // Listen before the first load: an activation between the two is then never missed.
    if (this.followsGit)
      await this.deployed!.listen((cause) => void this.reload(`deployed version (${cause})`));
    const result = await this.reload('start-up');
    if (!result.ok) {
      const from = this.followsGit ? 'the active deployed version' : `the rules in ${this.config.rulesDir}`;
      throw new Error(`${from} cannot be loaded:\n${formatProblems(result.problems, 'text')}`);
    }
    if (this.config.rulesWatch && !this.followsGit) this.watch();
    process.on('SIGHUP', this.onSighup);
  }

  onModuleDestroy(): void {
    process.off('SIGHUP', this.onSighup);
    clearTimeout(this.timer);
    this.watcher?.close();
    this.watcher = undefined;
  }

  current(): CompiledRuleSet | undefined {
    return this.set;
  }

  /** The running set, once the start-up load has installed one (at once afterwards). */
  loaded(): Promise<CompiledRuleSet> {
    return this.set ? Promise.resolve(this.set) : this.first;
  }

  /** Problems of the last attempt (warnings of a good set, or the errors of a refused one). */
  problems(): RuleProblem[] {
    return this.last.problems;
  }

  status(): RuleSetStatus {
    return {
      ...(this.set ? { version: this.set.version } : {}),
      ...(this.set?.commit ? { commit: this.set.commit } : {}),
      source: this.followsGit ? 'git' : 'directory',
      ...(this.loadedAt ? { loadedAt: this.loadedAt.toISOString() } : {}),
      ruleCount: this.set?.rules.length ?? 0,
      lastAttempt: this.last,
    };
  }

  reload(reason: string): Promise<ReloadResult> {
    const next = this.queue.then(() => this.load(reason));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Called with each new set; returns the unsubscribe function. */
  onChange(listener: (set: CompiledRuleSet) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async load(reason: string): Promise<ReloadResult> {
    const from = this.followsGit ? 'the active deployed version' : this.config.rulesDir;
    // The loaders report I/O problems themselves; this catch keeps a bug in a check (or Postgres
    // down) from becoming an unhandled rejection of a watcher-, signal- or NOTIFY-triggered reload.
    const { result, commit, files } = await this.next(reason).catch((err: Error) => ({
      result: cannotReadRules(from, err.message),
      commit: undefined,
      files: undefined,
    }));
    const fresh = result.ruleSet;
    this.last = { at: new Date().toISOString(), ok: fresh !== undefined, reason, problems: result.problems };
    for (const p of result.problems.filter((x) => x.severity === 'warning'))
      this.logger.warn(formatProblem(p));
    if (!fresh) {
      const kept = this.set
        ? `keeping rule set ${this.set.version} (${this.set.commit ?? 'no commit'})`
        : 'no rule set is running';
      this.logger.error(
        `rules reload (${reason}) refused, ${kept}:\n${formatProblems(result.problems, 'text')}`,
      );
      return { ok: false, ...(this.set ? { version: this.set.version } : {}), problems: result.problems };
    }
    fresh.commit =
      commit ?? (files && (await this.deployed?.recordDirectory(this.config.rulesDir, files, result)));
    // A commit that changes nothing a rule does is installed too (runs name it) with the same rule
    // versions: rule versions are content hashes, so splits and waits are not disturbed.
    if (fresh.version !== this.set?.version || fresh.commit !== this.set?.commit) {
      this.set = fresh; // the swap: one reference; evaluations in flight keep the set they started with
      this.installFirst(fresh);
      this.loadedAt = new Date();
      this.logger.log(
        `rule set ${fresh.version} loaded (${reason}): ${fresh.rules.length} rule(s) from ${from}${fresh.commit ? ` at ${fresh.commit}` : ''}`,
      );
      this.notify(fresh);
      // Names the live CRM lacks are warned about now, not when a contact first hits the rule.
      void this.deployed?.checkNames(`rules loaded (${reason})`);
    }
    return { ok: true, version: fresh.version, problems: result.problems };
  }

  /** The set to install: the active deployed version (git), or RULES_DIR's files. */
  private async next(reason: string): Promise<{ result: LoadResult; commit?: string; files?: RuleFile[] }> {
    if (this.followsGit) return this.deployed!.loadActive(reason);
    const dir = this.config.rulesDir;
    const result = await loadRulesFromDir(dir, {
      allowedHosts: this.config.httpAction.allowedHosts,
      secretHosts: this.config.httpAction.secretHosts,
    });
    return { result, ...(result.files ? { files: result.files } : {}) };
  }

  private notify(set: CompiledRuleSet): void {
    for (const listener of this.listeners) {
      try {
        listener(set);
      } catch (err) {
        this.logger.error(`rule set listener failed: ${(err as Error).message}`);
      }
    }
  }

  private watch(): void {
    try {
      this.watcher = watch(this.config.rulesDir, { recursive: true }, (_event, file) => {
        // Rule tests do not change the set. Anything else may (a ConfigMap swaps a `..data` link).
        if (file && isRuleTestFile(String(file))) return;
        clearTimeout(this.timer);
        this.timer = setTimeout(() => void this.reload('file change'), RELOAD_DEBOUNCE_MS);
      });
      this.watcher.on('error', (err) =>
        this.logger.warn(`watching ${this.config.rulesDir} failed: ${err.message}`),
      );
    } catch (err) {
      this.logger.warn(
        `cannot watch ${this.config.rulesDir} (${(err as Error).message}); reload with SIGHUP instead`,
      );
    }
  }
}
