// The contact and ids the segment-filter tables run against, shared by their spec files so each
// table stays under the 300-line ceiling.
import type { MirroredContact } from '../crm-terms/mirrored-contact';
import type { ResolvedFilters } from './resolved-filters';
import { resolveRelativeDates, type RuleSegmentFilters } from './resolved-filters';

export const NOW = new Date('2025-06-15T12:00:00.000Z');
export const VIP = '7a000000-0000-4000-8000-000000000002';
export const DORMANT = '7a000000-0000-4000-8000-000000000004';
export const LEAD = '7a000000-0000-4000-8000-000000000003';
export const NEW_LEAD = '5a000000-0000-4000-8000-000000000001';
export const CUSTOMER = '5a000000-0000-4000-8000-000000000003';
export const ANA = 'a0000000-0000-4000-8000-000000000001';
export const BEN = 'a0000000-0000-4000-8000-000000000002';

export function contact(over: Partial<MirroredContact> = {}): MirroredContact {
  return {
    id: 'c0000000-0000-4000-8000-000000000001',
    name: 'Maria',
    phone: '5511987654321',
    email: null,
    avatar: null,
    notes: null,
    status: 'active',
    isBlocked: false,
    sourceMethod: 'MANUAL',
    assigneeId: ANA,
    stageId: NEW_LEAD,
    tagIds: [VIP],
    tags: [{ id: VIP, name: 'vip', color: '#e91e63' }],
    customFields: { plan: 'opt-pro', interests: ['opt-a', 'opt-b'], company: 'Acme' },
    country: 'BR',
    createdAt: new Date('2025-01-10T00:00:00.000Z'),
    updatedAt: new Date('2025-06-01T00:00:00.000Z'),
    lastInteractionAt: new Date('2025-05-01T00:00:00.000Z'),
    ...over,
  };
}

export const f = (filters: RuleSegmentFilters): ResolvedFilters => resolveRelativeDates(filters, NOW);
