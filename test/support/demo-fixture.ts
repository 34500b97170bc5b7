// Ids and API keys of the sandbox's demo fixture (packages/crm-sandbox/src/fixtures/demo.yaml), for tests that
// run against it. Fixture ids are `<kind prefix>-0000-4000-8000-<n>`; the fixture gives them explicitly.

export const KEYS = {
  full: 'sk_demo_full',
  readonly: 'sk_demo_readonly',
  revoked: 'sk_demo_revoked',
  contactsOnly: 'sk_demo_contacts',
  other: 'sk_other_full',
} as const;

const id = (prefix: string, n: number) => `${prefix}-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const DEMO = {
  members: { ana: id('a0000000', 1), ben: id('a0000000', 2), cara: id('a0000000', 3) },
  stages: { newLead: id('5a000000', 1), qualified: id('5a000000', 2), customer: id('5a000000', 3) },
  tags: {
    newContact: id('7a000000', 1),
    vip: id('7a000000', 2),
    adLead: id('7a000000', 3),
    dormant: id('7a000000', 4),
    customer: id('7a000000', 5),
    thanked: id('7a000000', 6),
  },
  channels: { main: id('c4000000', 1), oldLine: id('c4000000', 2) }, // connected / disconnected
  customFields: {
    plan: id('cf000000', 1),
    company: id('cf000000', 2),
    website: id('cf000000', 3),
    legacy: id('cf000000', 4),
  },
  contacts: {
    maria: id('c0000000', 1), // assigned (Ana), tag new-contact, stage New lead, open conversation on Main WhatsApp
    john: id('c0000000', 2), // assigned (Ben), vip
    priya: id('c0000000', 3), // no assignee, conversation on Main WhatsApp
    lukas: id('c0000000', 4),
    anaGomez: id('c0000000', 5), // blocked
    chen: id('c0000000', 6), // no assignee, no conversation
    fatima: id('c0000000', 7), // archived
    kenji: id('c0000000', 8),
    olivia: id('c0000000', 9),
    pedro: id('c0000000', 10),
  },
  conversations: {
    maria: id('cc000000', 1),
    john: id('cc000000', 2),
    priya: id('cc000000', 3),
    lukas: id('cc000000', 4),
    kenji: id('cc000000', 5),
  },
  templates: { welcome: id('7e000000', 1), orderUpdate: id('7e000000', 2), pending: id('7e000000', 3) },
  other: {
    contact: id('c0000000', 101),
    tag: id('7a000000', 101),
    stage: id('5a000000', 101),
    channel: id('c4000000', 101),
  },
  contactCount: 10,
} as const;

/** A well-formed uuid that no fixture item has. */
export const UNKNOWN_ID = '00000000-0000-4000-8000-00000000dead';
