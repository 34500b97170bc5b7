// Rules name tags, stages, members and channels; the CRM wants ids. The directory caches names.
import type { CrmDirectory } from '../crm/crm-directory.service';
import type { RuleAction } from '../rules/rule-types';
import type { ResolvedAction } from './action-guards';

export async function resolveAction(directory: CrmDirectory, action: RuleAction): Promise<ResolvedAction> {
  switch (action.type) {
    case 'add-tag':
    case 'remove-tag':
      return { type: action.type, tagId: (await directory.resolveTag(action.tag)).id };
    case 'move-stage':
      return {
        type: 'move-stage',
        stageId: action.stage === null ? null : (await directory.resolveStage(action.stage)).id,
      };
    case 'assign':
      return { type: 'assign', memberId: await resolveMemberId(directory, action.member) };
    case 'open-conversation':
      return { type: 'open-conversation', channelId: (await directory.resolveChannel(action.channel)).id };
    case 'react':
      return { type: 'react', emoji: action.emoji };
    case 'send-message':
      return { type: 'send-message', text: action.text };
    case 'create-segment':
      return { type: 'create-segment', name: action.name, filters: action.filters };
    case 'block':
    case 'unblock':
      return { type: action.type };
  }
}

export async function resolveMemberId(directory: CrmDirectory, member: string): Promise<string> {
  if (member === 'round-robin') return (await directory.nextRoundRobinMember()).id;
  return (await directory.resolveMember(member)).id;
}
