// Rules name tags, stages, members, channels, templates and fields; the CRM wants ids. Each
// catalogue entry resolves its own names (through the cached directory, named by type only) and
// renders its templated values. Pure dispatch through the catalogue: the runner, admission's
// settlement and manual runs, the sweep plan and the CLI's simulation share it.
import type { CrmDirectory } from '../../outbound/crm-gateway/crm-directory.service';
import type { RuleAction } from '../rules/format/rule-types';
import { isRoundRobin, resolveMemberId, ROUND_ROBIN } from './assign.action';
import { actionDefinition, type ResolvedAction } from './catalogue';
import type { PoolSpec } from '../assignment/pool-spec';
import type { PoolChoice } from '../assignment/choose-member';
import { renderTemplate, type TemplateView } from './template-values';

export function resolveAction(
  directory: CrmDirectory,
  action: RuleAction,
  facts: TemplateView = {},
  /**
   * dryRun: no draw (plans, previews): no round-robin draw, a pool's next turn peeked, not taken;
   * rotation: the pool's turn counter (poolRotationOf) a preview peeks; member: how the runner picks
   * members (recorded draws); pool: how the runner draws from a pool (recorded draws); else the
   * directory's own choice.
   */
  options: {
    dryRun?: boolean;
    rotation?: string;
    member?: (name: string) => Promise<string>;
    pool?: (spec: PoolSpec) => Promise<PoolChoice>;
  } = {},
): Promise<ResolvedAction> {
  const member =
    options.member ??
    ((name: string) =>
      options.dryRun && isRoundRobin(name) ? Promise.resolve(ROUND_ROBIN) : resolveMemberId(directory, name));
  return actionDefinition(action.type).resolve(action, {
    directory,
    render: (text) => renderTemplate(text, facts),
    member,
    pool:
      options.pool ??
      ((spec) => directory.choosePoolMember(spec, options.rotation, { peek: options.dryRun === true })),
  });
}
