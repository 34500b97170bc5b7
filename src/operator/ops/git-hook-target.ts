import type { INestApplication } from '@nestjs/common';
import type { AppConfig } from '../../runtime/config/app-config';
import type { GitHookTarget } from '../../runtime/rule-set/deploy/verify-git-push';
import { RulesGitQueue } from '../../runtime/rule-set/deploy/rules-git-queue.service';
import { EngineMetrics } from './engine-metrics';

/** What POST /hooks/git needs from the application: the secret, the ref, the queue, the metric. */
export function gitHookTarget(app: INestApplication, config: AppConfig): GitHookTarget {
  const queue = app.get(RulesGitQueue);
  const metrics = app.get(EngineMetrics);
  return {
    secret: config.rulesGit?.webhookSecret,
    ref: config.rulesGit?.ref ?? 'main',
    fetchNow: async (actor, key) => {
      await queue.fetchNow(actor, key);
      metrics.rulesGitHooks.inc({ outcome: 'fetch' });
    },
    refused: (reason) => metrics.rulesGitHooks.inc({ outcome: reason }),
  };
}
