// `crm-rules diff` names the contacts it lists (issue 32, names everywhere): name and phone as the
// recorded event carried them, beside the id; an event without the contact shows the id alone.
import { formatDiff } from './diff-format';
import { contactNameOf, type RecordedEvent } from './recorded-events';
import type { RuleSetDiff } from './rule-diff';

const event = (over: Partial<RecordedEvent>): RecordedEvent => ({
  id: 'e1',
  type: 'contact.updated',
  createdAt: '2026-11-01T10:00:00.000Z',
  data: {},
  contactId: 'c1',
  ...over,
});

describe('contactNameOf', () => {
  it.each([
    [
      'a contact event',
      event({ data: { id: 'c1', name: 'Dana Demo', phone: '5511900000042' } }),
      'Dana Demo (+5511900000042)',
    ],
    [
      'a message event with the contact read',
      event({ type: 'message.created', data: {}, contact: { name: 'Dana Demo' } }),
      'Dana Demo',
    ],
    [
      'a message event without it',
      event({ type: 'message.created', data: { name: 'not the contact' } }),
      null,
    ],
  ])('%s', (_what, e, expected) => {
    expect(contactNameOf(e)).toBe(expected);
  });
});

describe('formatDiff names contacts beside their ids', () => {
  const diff = {
    changedRules: 1,
    events: 2,
    policy: 'none',
    rules: [
      {
        rule: 'r',
        change: 'changed',
        lost: {
          runs: 1,
          contacts: 1,
          examples: [
            {
              contactId: 'c1',
              contactName: 'Dana Demo (+5511900000042)',
              eventId: 'e1',
              eventType: 'contact.updated',
              at: 't',
              actions: ['add-tag "vip"'],
            },
          ],
        },
        gained: {
          runs: 1,
          contacts: 1,
          examples: [
            {
              contactId: 'c2',
              eventId: 'e2',
              eventType: 'contact.updated',
              at: 't',
              actions: ['add-tag "vip"'],
            },
          ],
        },
      },
    ],
  } as unknown as RuleSetDiff;

  it('in text', () => {
    const text = formatDiff(diff, 'text', 'main');
    expect(text).toContain('− Dana Demo (+5511900000042) c1: add-tag "vip"');
    expect(text).toContain('+ c2: add-tag "vip"');
  });
});
