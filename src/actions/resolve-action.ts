// Rules name tags, stages, members, channels, templates and fields; the CRM wants ids. Each
// catalogue entry resolves its own names (through the cached directory) and renders its
// templated values.
import type { CrmDirectory } from '../crm/crm-directory.service';
import type { RuleAction } from '../rules/rule-types';
import { actionDefinition, type ResolvedAction } from './catalogue/catalogue';
import { renderTemplate, type TemplateView } from './catalogue/template-values';

export function resolveAction(
  directory: CrmDirectory,
  action: RuleAction,
  facts: TemplateView = {},
  options: { dryRun?: boolean } = {},
): Promise<ResolvedAction> {
  return actionDefinition(action.type).resolve(action, {
    directory,
    render: (text) => renderTemplate(text, facts),
    dryRun: options.dryRun ?? false,
  });
}
