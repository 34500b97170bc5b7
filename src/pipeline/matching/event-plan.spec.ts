import { eventFacts, isContactGone, planEvent, type StoredEvent } from './event-plan';
import { apiError } from '../../language/crm-terms/crm-errors.spec-support';

const event = (type: string, over: Partial<StoredEvent> = {}): StoredEvent => ({
  type,
  replay: false,
  contactId: 'c1',
  payload: { id: 'e1', type, data: { id: 'd1' } },
  ...over,
});

describe('planEvent', () => {
  it.each([
    // type, replay, contactId, listening rules → updateMirror, match, contactFrom
    ['contact.created', false, 'c1', 1, true, true, 'payload'],
    ['contact.updated', false, 'c1', 0, true, false, 'payload'],
    ['contact.deleted', false, 'c1', 2, true, true, 'payload'],
    ['contact.updated', true, 'c1', 1, false, true, 'payload'],
    ['message.received', false, 'c1', 1, false, true, 'crm'],
    ['message.received', false, null, 1, false, false, 'crm'],
    ['conversation.closed', false, 'c1', 0, false, false, 'crm'],
    ['something.unknown', false, null, 0, false, false, 'crm'],
  ] as const)(
    '%s (replay %s, contact %s, %i rule(s)) → mirror %s, match %s, contact from %s',
    (type, replay, contactId, listening, updateMirror, match, contactFrom) => {
      expect(planEvent(event(type, { replay, contactId }), listening)).toEqual({
        updateMirror,
        match,
        contactFrom,
      });
    },
  );
});

describe('eventFacts', () => {
  const now = new Date('2025-01-01T00:00:00Z');

  it('takes the contact of a contact event from its payload, with no message', () => {
    const e = event('contact.updated', {
      payload: { type: 'contact.updated', data: { id: 'c1', name: 'Ana' } },
    });
    expect(eventFacts(e, now)).toEqual({ event: e.payload, now, contact: { id: 'c1', name: 'Ana' } });
  });

  it('takes the message of a message event from its payload and the contact from the read', () => {
    const e = event('message.received', {
      payload: { type: 'message.received', data: { id: 'm1', text: 'hi' } },
    });
    expect(eventFacts(e, now, { id: 'c1', isBlocked: false })).toEqual({
      event: e.payload,
      now,
      message: { id: 'm1', text: 'hi' },
      contact: { id: 'c1', isBlocked: false },
    });
  });
});

describe('isContactGone', () => {
  it.each([
    [apiError(404, 'not_found'), true],
    [apiError(400, 'validation_error'), false],
    [apiError(500, 'internal_error'), false],
    [new Error('404'), false],
  ])('%s → %s', (err, gone) => {
    expect(isContactGone(err)).toBe(gone);
  });
});
