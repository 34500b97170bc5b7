// What an action does as far as the set-level checks care: the events it makes the CRM emit and
// how a problem message names it.
import type { RuleAction } from './rule-types';

/** What the CRM emits after each action (DESIGN.md: every contact write emits contact.updated). */
export function emittedEvents(action: RuleAction): string[] {
  switch (action.type) {
    case 'add-tag':
    case 'remove-tag':
    case 'move-stage':
    case 'assign':
    case 'block':
    case 'unblock':
      return ['contact.updated'];
    case 'send-message':
      return action.assignFirst ? ['message.created', 'contact.updated'] : ['message.created'];
    case 'react':
      return action.assignFirst ? ['contact.updated'] : [];
    default:
      return [];
  }
}

export function describeAction(a: RuleAction): string {
  switch (a.type) {
    case 'add-tag':
    case 'remove-tag':
      return `${a.type} "${a.tag}"`;
    case 'move-stage':
      return `move-stage ${a.stage === null ? 'null' : `"${a.stage}"`}`;
    case 'assign':
      return `assign "${a.member}"`;
    case 'open-conversation':
      return `open-conversation "${a.channel}"`;
    case 'create-segment':
      return `create-segment "${a.name}"`;
    default:
      return a.type;
  }
}
