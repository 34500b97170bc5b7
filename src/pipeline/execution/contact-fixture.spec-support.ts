// A contact for the actions' table-driven specs (guards, catalogue, settlement): one shape, each
// spec overriding what its cases need. Used by specs only.
import type { Contact } from '@crm-rules/crm-contract';

export const VIP = { id: 'tag-vip', name: 'vip', color: '#f00' };

export const contactFixture = (over: Partial<Contact> = {}): Contact => ({
  id: 'c1',
  name: 'Ana',
  phone: '5511999990000',
  email: null,
  avatar: null,
  notes: null,
  status: 'active',
  isBlocked: false,
  sourceMethod: 'MANUAL',
  assigneeId: 'm1',
  stageId: 'stage-new',
  tags: [VIP],
  createdAt: '2025-01-01T00:00:00Z',
  updatedAt: '2025-01-01T00:00:00Z',
  lastInteractionAt: null,
  ...over,
});
