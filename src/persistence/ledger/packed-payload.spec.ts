import { packPayload, unpackPayload, withPayload } from './packed-payload';

const CONTACT_EVENT = {
  id: 'evt_3f0c9a52-4b51-4c43-9a0e-8f1f3f5b2d11',
  data: {
    id: '7ca0c537-1092-4ddc-a78e-3f876aa09a29',
    name: 'Ana Öster',
    tags: [{ id: '7a000000-0000-4000-8000-000000000001', name: 'new-contact', color: '#03a9f4' }],
    email: 'ana@example.com',
    notes: null,
    phone: '14150100414',
    avatar: null,
    status: 'active',
    stageId: '5a000000-0000-4000-8000-000000000002',
    createdAt: '2024-12-16T09:33:49.206Z',
    isBlocked: false,
    updatedAt: '2026-11-29T09:34:34.624Z',
    assigneeId: null,
    customFields: { plan: 'free' },
    sourceMethod: 'WIDGET',
    lastInteractionAt: '2026-10-25T09:33:49.620Z',
  },
  type: 'contact.updated',
  createdAt: '2026-11-29T09:34:34.624Z',
};

describe('packed payloads', () => {
  it.each([
    ['a contact event', CONTACT_EVENT],
    ['an empty object', {}],
    [
      'a message event',
      { type: 'message.created', data: { contactId: 'c', text: 'hi 👋', isOutgoing: false } },
    ],
    ['U+FFFD where the CRM sent U+0000', { type: 'custom.x', data: { note: 'a\ufffdb' } }],
    ['numbers, nesting and arrays', { a: [1, 2.5, -3e-7, [true, null]], b: { c: { d: 'x'.repeat(5000) } } }],
  ])('gives back %s exactly', (_, payload) => {
    expect(unpackPayload(packPayload(payload))).toEqual(payload);
  });

  it('keeps a contact event in under a third of its JSON text', () => {
    const packed = packPayload(CONTACT_EVENT);
    expect(packed.length).toBeLessThan(JSON.stringify(CONTACT_EVENT).length / 3);
  });

  it.each([
    ['an unknown format', Buffer.of(9, 1, 2, 3), 'unknown format 9'],
    ['no bytes at all', Buffer.alloc(0), 'unknown format (empty)'],
    ['damaged bytes', Buffer.of(1, 0xff, 0xff, 0xff), 'format 1 damaged'],
  ])('refuses %s, naming it', (_, bytes, message) => {
    expect(() => unpackPayload(bytes)).toThrow(message);
  });

  it.each([
    [
      'a packed row',
      { id: 'e', payload: null, payload_packed: packPayload({ a: 1 }) },
      { id: 'e', payload: { a: 1 } },
    ],
    ['a jsonb row', { id: 'e', payload: { a: 1 }, payload_packed: null }, { id: 'e', payload: { a: 1 } }],
    ['a row read without the column', { id: 'e', payload: { a: 1 } }, { id: 'e', payload: { a: 1 } }],
    [
      'a row with its previous state packed',
      {
        id: 'e',
        payload: null,
        payload_packed: packPayload({ a: 1 }),
        previous_contact: null,
        previous_packed: packPayload({ missing: 'x' }),
      },
      { id: 'e', payload: { a: 1 }, previous_contact: { missing: 'x' } },
    ],
  ])('hands out %s with its payload as JSON', (_, row, expected) => {
    expect(withPayload(row)).toEqual(expected);
  });
});
