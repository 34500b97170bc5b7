// POST /hooks/git (issue 31): a signed push starts a fetch job. Served ahead of Express like the
// other webhooks (and ahead of /hooks/<source>, so no custom source can take the name), with the
// same body limits; a wrong or missing signature is a 401 before any job exists.
import type { RequestListener } from 'node:http';
import {
  concernsRef,
  verifyGitPush,
  type GitHookTarget,
} from '../../runtime/rule-set/deploy/verify-git-push';
import { readAndAccept, refuseAndClose } from './webhook-handler';

export const GIT_HOOK_PATH = '/hooks/git';

export function gitHookFastPath(
  target: GitHookTarget,
  opts: { limitBytes: number; timeoutMs: number },
  next: RequestListener,
): RequestListener {
  return (req, res) => {
    if ((req.url ?? '').split('?')[0] !== GIT_HOOK_PATH) return next(req, res);
    if (req.method !== 'POST')
      return refuseAndClose(req, res, 405, { error: { code: 'method_not_allowed', message: 'POST only' } });
    if (!target.secret) {
      target.refused('no_secret_configured');
      return refuseAndClose(req, res, 401, {
        error: { code: 'unauthorized', message: 'RULES_GIT_WEBHOOK_SECRET is not set' },
      });
    }
    readAndAccept(req, res, opts, async (body) => {
      const check = verifyGitPush(req.headers, body, target.secret);
      if (!check.ok) {
        target.refused(check.reason);
        return { status: 401, body: { error: { code: 'unauthorized', message: 'signature refused' } } };
      }
      if (!concernsRef(check.ref, target.ref))
        return { status: 202, body: { fetch: false, reason: 'other ref' } };
      await target.fetchNow('webhook', check.delivery ?? `push-${Date.now()}`);
      return { status: 202, body: { fetch: true } };
    });
  };
}
