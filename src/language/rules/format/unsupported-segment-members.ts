// Segment filter members (docs/CRM-API.md §2.4) that the engine cannot evaluate locally: segment
// rules are evaluated against the contact mirror, and the contact resource (2.1) carries
// none of these. One list, reused by the validator, docs/RULES.md and the segment engine.

export const UNSUPPORTED_SEGMENT_MEMBERS: Readonly<Record<string, string>> = {
  channelIds: 'the contact resource does not say which channels a contact talks on',
  adIds: 'the contact resource carries no ad attribution (only sourceMethod, e.g. MSG_API_AD)',
  campaignIds: 'the contact resource carries no campaign attribution (only sourceMethod)',
  adSetIds: 'the contact resource carries no ad set attribution (only sourceMethod)',
  adUrls: 'the contact resource carries no ad URL (only sourceMethod)',
  broadcastIds: 'the contact resource does not list the broadcasts a contact received',
  hasConversations: 'the contact resource does not say whether the contact has conversations',
};

export function unsupportedSegmentMemberReason(member: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(UNSUPPORTED_SEGMENT_MEMBERS, member)
    ? UNSUPPORTED_SEGMENT_MEMBERS[member]
    : undefined;
}
