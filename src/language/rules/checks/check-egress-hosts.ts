// `validate` and the engine's rule loading warn about an http-request whose URL names a host that
// is not on the allow-list (HTTP_ACTION_ALLOWED_HOSTS), when the host is written out: such a step
// would be refused at run time (docs/RELIABILITY.md, SSRF surface). A templated host is only
// known at run time, where the egress layer checks it. A header naming `${secret.X}` on such a
// URL whose host HTTP_ACTION_SECRET_HOSTS does not name for X is an error: the request would be
// refused (egress_secret_refused). Pure.
import { staticHost } from '../../catalogue/http-request.action';
import { hostAllowed } from '../../net/egress-policy';
import { secretNames } from '../../net/secret-headers';
import type { LoadedRule } from '../format/loaded-rule';
import type { RuleAction, RuleProblem } from '../format/rule-types';

export function checkEgressHosts(
  loaded: readonly LoadedRule[],
  allowedHosts: readonly string[],
): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const allowed = allowedHosts.map((h) => h.toLowerCase());
  for (const { host, pos } of writtenOutRequests(loaded)) {
    if (hostAllowed(host, allowed)) continue;
    const why = allowed.length === 0 ? 'no host is allowed' : `allowed: ${allowed.join(', ')}`;
    problems.push({
      ...pos(['url']),
      severity: 'warning',
      code: 'host-not-allowed',
      message: `host ${host} is not on HTTP_ACTION_ALLOWED_HOSTS (${why}): this request will be refused`,
    });
  }
  return problems;
}

/**
 * Each `${secret.X}` of a written-out URL's headers must be allowed to go to that host. A host
 * that is not on the allow-list (when one is given) is left to checkEgressHosts' warning: the
 * whole request is refused there, so a recipe copied before its host is allowed stays loadable.
 */
export function checkSecretHosts(
  loaded: readonly LoadedRule[],
  secretHosts: Readonly<Record<string, readonly string[]>>,
  allowedHosts?: readonly string[],
): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const allowed = allowedHosts?.map((h) => h.toLowerCase());
  for (const { action, host, pos } of writtenOutRequests(loaded)) {
    if (allowed && !hostAllowed(host, allowed)) continue;
    for (const [header, value] of Object.entries(action.headers ?? {}))
      for (const name of secretNames(value)) {
        const hosts = secretHosts[name] ?? [];
        if (hostAllowed(host, hosts)) continue;
        const named = hosts.length === 0 ? 'it names no host' : `allowed: ${hosts.join(', ')}`;
        problems.push({
          ...pos(['headers', header]),
          severity: 'error',
          code: 'secret-host-not-allowed',
          message: `secret ${name} may not be sent to ${host} (HTTP_ACTION_SECRET_HOSTS: ${named}): this request would be refused`,
        });
      }
  }
  return problems;
}

interface WrittenOutRequest {
  action: Extract<RuleAction, { type: 'http-request' }>;
  host: string;
  /** The position of a key under the step's `http-request`. */
  pos: (under: (string | number)[]) => ReturnType<LoadedRule['at']['pos']>;
}

/** Every http-request of `do` and `on-leave` whose URL writes its host out (not templated). */
function* writtenOutRequests(loaded: readonly LoadedRule[]): Generator<WrittenOutRequest> {
  for (const { def, at } of loaded) {
    const lists: [string, RuleAction[], (i: number) => number][] = [
      ['do', def.actions, (i) => def.actionSteps?.[i] ?? i],
      ['on-leave', def.trigger.kind === 'schedule' ? (def.trigger.onLeave ?? []) : [], (i) => i],
    ];
    for (const [key, actions, step] of lists)
      for (const [i, action] of actions.entries()) {
        if (action.type !== 'http-request') continue;
        const host = staticHost(action.url);
        if (host !== undefined)
          yield { action, host, pos: (under) => at.pos([key, step(i), 'http-request', ...under]) };
      }
  }
}
