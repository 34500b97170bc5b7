// `validate` and the engine's rule loading warn about an http-request whose URL names a host that
// is not on the allow-list (HTTP_ACTION_ALLOWED_HOSTS), when the host is written out: such a step
// would be refused at run time (docs/RELIABILITY.md, SSRF surface). A templated host is only
// known at run time, where the egress layer checks it. Pure.
import { staticHost } from '../catalogue/http-request.action';
import { hostAllowed } from '../../net/egress-policy';
import type { LoadedRule } from './loaded-rule';
import type { RuleAction, RuleProblem } from './rule-types';

export function checkEgressHosts(
  loaded: readonly LoadedRule[],
  allowedHosts: readonly string[],
): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const allowed = allowedHosts.map((h) => h.toLowerCase());
  for (const { def, at } of loaded) {
    const lists: [string, RuleAction[], (i: number) => number][] = [
      ['do', def.actions, (i) => def.actionSteps?.[i] ?? i],
      ['on-leave', def.trigger.kind === 'schedule' ? (def.trigger.onLeave ?? []) : [], (i) => i],
    ];
    for (const [key, actions, step] of lists)
      actions.forEach((action, i) => {
        if (action.type !== 'http-request') return;
        const host = staticHost(action.url);
        if (host === undefined || hostAllowed(host, allowed)) return;
        const why = allowed.length === 0 ? 'no host is allowed' : `allowed: ${allowed.join(', ')}`;
        problems.push({
          ...at.pos([key, step(i), 'http-request', 'url']),
          severity: 'warning',
          code: 'host-not-allowed',
          message: `host ${host} is not on HTTP_ACTION_ALLOWED_HOSTS (${why}): this request will be refused`,
        });
      });
  }
  return problems;
}
