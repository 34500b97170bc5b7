// create-segment sends its filters to the CRM, which takes uuids: names in tagIds, stageIds and
// assigneeIds are looked up in the directory first, uuids pass as they are.
import type { SegmentFilters } from '@crm-rules/crm-contract';
import type { ResolveEnv } from './action-definition';
import { createSegmentAction } from './create-segment.action';

const UUID = '7a000000-0000-4000-8000-000000000002';
const directory = {
  resolveTag: async (name: string) => ({ id: `tag:${name}` }),
  resolveStage: async (name: string) => ({ id: `stage:${name}` }),
  resolveMember: async (name: string) => ({ id: `member:${name}` }),
};
const env = { directory } as unknown as ResolveEnv;

describe('create-segment resolves names before sending', () => {
  it.each([
    [{ tagIds: ['vip', UUID] }, { tagIds: ['tag:vip', UUID] }],
    [
      { stageIds: ['Qualified'], status: 'active' },
      { stageIds: ['stage:Qualified'], status: 'active' },
    ],
    [
      { assigneeIds: ['ana@demo.test'], includeUnassigned: true },
      { assigneeIds: ['member:ana@demo.test'], includeUnassigned: true },
    ],
    [{ createdAfter: '2024-01-01T00:00:00Z' }, { createdAfter: '2024-01-01T00:00:00Z' }],
  ] as [SegmentFilters, SegmentFilters][])('%j is sent as %j', async (filters, sent) => {
    const resolved = await createSegmentAction.resolve({ type: 'create-segment', name: 'S', filters }, env);
    expect(resolved).toEqual({ type: 'create-segment', name: 'S', filters: sent });
  });
});
