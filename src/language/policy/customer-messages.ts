// Which actions are customer messages: the catalogue entries that declare `customerMessage`
// (send-message, send-template; not react). The messaging policy counts and holds only these,
// and the contact page counts the same ones. Pure.
import { actionDefinition, ACTION_TYPES } from '../catalogue/catalogue';

export const CUSTOMER_MESSAGE_TYPES: readonly string[] = ACTION_TYPES.filter(
  (t) => actionDefinition(t).customerMessage,
);

export function isCustomerMessage(type: string): boolean {
  return CUSTOMER_MESSAGE_TYPES.includes(type);
}
