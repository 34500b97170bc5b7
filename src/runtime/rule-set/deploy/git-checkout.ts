// Reads one commit of the rules repository through the git binary (simple-git): a bare cache
// repository fetched from RULES_GIT_URL, the files read from the commit's tree (no work tree, so a
// symlink in the repository is a blob naming a path, never followed). No home-made git client.
import { mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { simpleGit, type SimpleGit } from 'simple-git';
import type { RulesGitConfig } from '../../config/app-config';
import { redactGitUrl } from '../../config/load-rules-git-config';
import { isRuleSetFile } from '../../../language/rules/format/load-rules';

export interface FetchedCommit {
  commit: string;
  author: string;
  message: string;
  /** Paths relative to RULES_GIT_SUBDIR → text. */
  files: Record<string, string>;
}

/** A regular file (100644 / 100755) in `git ls-tree`; 120000 (symlink) and 160000 (submodule) are not read. */
const REGULAR_FILE = /^100(644|755) blob ([0-9a-f]{40,64})\t(.+)$/;

export class GitCheckout {
  private readonly dir: string;

  constructor(private readonly config: RulesGitConfig) {
    this.dir =
      config.cacheDir ??
      join(tmpdir(), `crm-rules-git-${createHash('sha256').update(config.url).digest('hex').slice(0, 12)}`);
  }

  /** Fetches RULES_GIT_REF and reads its commit; errors carry no credentials. */
  async fetch(): Promise<FetchedCommit> {
    try {
      return await this.fetchUnsafe();
    } catch (err) {
      throw new Error(this.redact((err as Error).message));
    }
  }

  private async fetchUnsafe(): Promise<FetchedCommit> {
    const git = await this.repository();
    await git.raw(['fetch', '--no-tags', '--depth', '1', this.config.url, this.config.ref]);
    const commit = (await git.raw(['rev-parse', 'FETCH_HEAD^{commit}'])).trim();
    const meta = await git.raw(['log', '-1', '--format=%an <%ae>%x00%s', commit]);
    const [author, message] = meta.replace(/\n$/, '').split('\0');
    const subdir = this.config.subdir;
    const tree = await git.raw(['ls-tree', '-r', '--full-tree', commit, ...(subdir ? ['--', subdir] : [])]);
    const files: Record<string, string> = {};
    for (const line of tree.split('\n')) {
      const m = REGULAR_FILE.exec(line);
      if (!m) continue;
      const rel = subdir ? posix.relative(subdir, m[3]) : m[3];
      if (rel.startsWith('..') || rel.split('/').some((s) => s.startsWith('.'))) continue;
      if (isRuleSetFile(rel)) files[rel] = await git.raw(['cat-file', 'blob', m[2]]);
    }
    return { commit, author, message, files };
  }

  private async repository(): Promise<SimpleGit> {
    if (!existsSync(join(this.dir, 'HEAD'))) {
      await mkdir(this.dir, { recursive: true });
      await simpleGit({ baseDir: this.dir }).raw(['init', '--bare', '--quiet']);
    }
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: this.dir,
      GIT_TERMINAL_PROMPT: '0',
      ...(this.config.sshKeyFile
        ? {
            GIT_SSH_COMMAND: `ssh -i ${this.config.sshKeyFile} -o IdentitiesOnly=yes -o StrictHostKeyChecking=accept-new -o BatchMode=yes`,
          }
        : {}),
    };
    return simpleGit({ baseDir: this.dir, timeout: { block: this.config.timeoutMs } }).env(env);
  }

  private redact(message: string): string {
    return message.split(this.config.url).join(redactGitUrl(this.config.url));
  }
}
