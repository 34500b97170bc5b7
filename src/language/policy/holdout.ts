// The policy's global control group (policy.yaml `holdout:`): a stable share of contacts that gets
// no customer message of the categories it covers, whatever the rule, so that what the messages
// do can be measured against contacts that got none. Membership is a hash of the salt and the
// contact id, as a split's arm is a hash of rule, version and contact: the same contact is in or
// out on every run, worker and replay; changing the salt draws a new group. Pure.
import { createHash } from 'node:crypto';

export interface Holdout {
  /** Share of contacts held out, 0 < percent < 100. */
  percent: number;
  /** Part of the hash: a new salt draws a new group. */
  salt: string;
  /** The categories it holds; absent: every category. */
  categories?: string[];
}

/** The contact's point in [0, 1) for the holdout. */
export function holdoutPoint(salt: string, contactId: string): number {
  const digest = createHash('sha256').update(`holdout\u0000${salt}\u0000${contactId}`).digest();
  return digest.readUInt32BE(0) / 2 ** 32;
}

/** Whether the contact is in the control group for messages of `category`. */
export function heldOut(
  holdout: Holdout | undefined,
  contactId: string | undefined,
  category: string,
): boolean {
  if (!holdout || contactId === undefined) return false;
  if (holdout.categories && !holdout.categories.includes(category)) return false;
  return holdoutPoint(holdout.salt, contactId) < holdout.percent / 100;
}
