// POST /hooks/<source> served from Node's HTTP server ahead of Express, like POST /webhooks/crm
// (webhook-handler.ts, whose body reading and refusals it reuses): the same untrusted-input rules.
// A malformed signature header is refused before the body is read, whatever the source; an
// unknown source is refused like a bad signature, after its body, so names cannot be enumerated.
import type { RequestListener } from 'node:http';
import { decodePathSegment } from '../../language/net/guarded-listener';
import type { CustomIntakeService } from './custom-intake.service';
import { readAndAccept, refuseAndClose } from './webhook-handler';

export const HOOKS_PREFIX = '/hooks/';

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(',') : value);

/** Wraps the next request listener: /hooks/<source> goes to the custom intake, the rest to `next`. */
export function customHookFastPath(
  custom: CustomIntakeService,
  opts: { limitBytes: number; signatureHeader: string; timeoutMs: number },
  next: RequestListener,
): RequestListener {
  return (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (!path.startsWith(HOOKS_PREFIX)) return next(req, res);
    if (req.method !== 'POST')
      return refuseAndClose(req, res, 405, { error: { code: 'method_not_allowed', message: 'POST only' } });
    // A broken escape (`%zz`) names no source: refused like any unknown name, never thrown.
    const name = decodePathSegment(path.slice(HOOKS_PREFIX.length));
    const checked = custom.check(name, single(req.headers[opts.signatureHeader]));
    if (!checked.ok) return refuseAndClose(req, res, checked.refusal.status, checked.refusal.body);
    readAndAccept(req, res, opts, (body) => custom.accept(checked, body));
  };
}
