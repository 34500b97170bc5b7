// The push webhook's check (pure): GitHub signs the body (X-Hub-Signature-256: sha256=<hex>,
// HMAC-SHA256 with the shared secret); GitLab sends the secret itself (X-Gitlab-Token). Both are
// compared in constant time. Nothing else is trusted: no header, no body field, starts a fetch
// without one of them right, and the refusal names no secret.
import { createHmac, timingSafeEqual } from 'node:crypto';

export type GitPushCheck =
  | { ok: true; provider: 'github' | 'gitlab'; ref?: string; delivery?: string }
  | { ok: false; reason: 'no_secret_configured' | 'unsigned' | 'bad_signature' };

type Headers = Record<string, string | string[] | undefined>;

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function verifyGitPush(headers: Headers, body: Buffer, secret: string | undefined): GitPushCheck {
  if (!secret) return { ok: false, reason: 'no_secret_configured' };
  const github = one(headers['x-hub-signature-256']);
  const gitlab = one(headers['x-gitlab-token']);
  let provider: 'github' | 'gitlab';
  if (github !== undefined) {
    const expected = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    if (!same(github.toLowerCase(), expected)) return { ok: false, reason: 'bad_signature' };
    provider = 'github';
  } else if (gitlab !== undefined) {
    if (!same(gitlab, secret)) return { ok: false, reason: 'bad_signature' };
    provider = 'gitlab';
  } else return { ok: false, reason: 'unsigned' };
  const delivery = one(headers['x-github-delivery']) ?? one(headers['x-gitlab-event-uuid']);
  return { ok: true, provider, ...pushedRef(body), ...(delivery ? { delivery } : {}) };
}

/** `ref` of a push payload (`refs/heads/main`), when the body is JSON and has one. */
function pushedRef(body: Buffer): { ref?: string } {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    const ref = (value as { ref?: unknown } | null)?.ref;
    return typeof ref === 'string' ? { ref } : {};
  } catch {
    return {};
  }
}

/** True when a push of `pushed` concerns the followed ref (a branch or tag name, or a full ref). */
export function concernsRef(pushed: string | undefined, followed: string): boolean {
  if (pushed === undefined) return true; // a ping or a provider that omits it: fetching is harmless
  return pushed === followed || pushed === `refs/heads/${followed}` || pushed === `refs/tags/${followed}`;
}

/** What POST /hooks/git needs from the application (src/operator/ops/git-hook-target.ts builds it). */
export interface GitHookTarget {
  secret: string | undefined;
  ref: string;
  fetchNow(actor: string, key: string): Promise<void>;
  refused(reason: string): void;
}
