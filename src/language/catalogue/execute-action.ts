// Turns one resolved action into the gateway call that performs it (declared by its catalogue
// entry): dispatch through the catalogue, pure; the write face arrives in the env.
import type { Contact } from '@crm-rules/crm-contract';
import type { ExecutionEnv } from './action-definition';
import { actionDefinition, type ResolvedAction } from './catalogue';

/** Returns the contact after the write when the CRM tells us (tag, block, stage, assign calls). */
export function executeAction(action: ResolvedAction, env: ExecutionEnv): Promise<Contact | undefined> {
  return actionDefinition(action.type).execute(action, env);
}
