// Pure lookups behind CrmDirectory: rules name things the way people do ("vip", "New lead",
// "ana@demo.test"); the CRM wants ids.
import type { Member } from '@crm-rules/crm-contract';

export type DirectoryKind = 'tag' | 'stage' | 'member' | 'channel' | 'template' | 'custom field' | 'option';

/** A name in a rule that matches nothing in the CRM (after a refresh). */
export class UnknownNameError extends Error {
  override readonly name = 'UnknownNameError';

  constructor(
    readonly kind: DirectoryKind,
    readonly unknownName: string,
    known: string[] = [],
  ) {
    const hint = known.length
      ? ` (known: ${known.slice(0, 10).join(', ')}${known.length > 10 ? ', ...' : ''})`
      : '';
    super(`unknown ${kind} "${unknownName}"${hint}`);
  }
}

const fold = (s: string) => s.trim().toLowerCase();

/**
 * Exact id first, then an exact label, then a case- and space-insensitive label when exactly
 * one item has it (two "VIP"/"vip" tags would make a guess wrong half the time).
 */
export function findByNameOrId<T extends { id: string }>(
  items: readonly T[],
  wanted: string,
  labels: (item: T) => (string | null | undefined)[],
): T | undefined {
  const byId = items.find((item) => item.id === wanted);
  if (byId) return byId;
  const exact = items.filter((item) => labels(item).includes(wanted));
  if (exact.length === 1) return exact[0];
  const folded = items.filter((item) =>
    labels(item).some((l) => typeof l === 'string' && fold(l) === fold(wanted)),
  );
  return folded.length === 1 ? folded[0] : undefined;
}

export function memberLabels(member: Member): string[] {
  return [member.name, member.email];
}

/** Members who can take contacts; status values are not documented, so only 'active' counts. */
export function assignableMembers(members: readonly Member[]): Member[] {
  const active = members.filter((m) => !m.status || fold(m.status) === 'active');
  // Sorted by id so every process rotates through the same order.
  return [...active].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Turn n (1-based, from a shared counter) into the next member of the rotation. */
export function roundRobinPick<T>(rotation: readonly T[], n: number): T | undefined {
  if (rotation.length === 0) return undefined;
  return rotation[(((n - 1) % rotation.length) + rotation.length) % rotation.length];
}
