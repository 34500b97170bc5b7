// Actions that answer the triggering message (react) work only in message.* rules.
import type { TriggerKinds } from './action-definition';

/** A messaging action on a trigger that carries no message (e.g. a segment sweep). */
export class MissingMessageError extends Error {
  override readonly name = 'MissingMessageError';
  constructor(readonly actionType: string) {
    super(`${actionType} needs a message to answer; the trigger carries none`);
  }
}

/** Why `type` (which `does` something with the message) cannot work in this trigger; undefined in message.* rules. */
export function messageTriggerOnly(type: string, does: string, trigger: TriggerKinds): string | undefined {
  const other = trigger === 'schedule' ? undefined : trigger.find((k) => !k.startsWith('message.'));
  const reason =
    trigger === 'schedule' ? 'segment rules have none' : other ? `${other} events carry none` : undefined;
  return reason ? `${type} ${does} and ${reason}: only message.* rules can ${type}` : undefined;
}
