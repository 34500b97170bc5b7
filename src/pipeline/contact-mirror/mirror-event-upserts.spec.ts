// previousInBatch: which previous state each event of one upsert batch gets. The statement writes
// only a contact's newest copy, so an earlier event of the same contact in the batch is the later
// one's previous state; the first one's is the mirror row (null here: read by the statement).
import type { Contact } from '@crm-rules/crm-contract';
import { previousInBatch, type EventUpsert } from './mirror-event-upserts';

const contact = (id: string, second: number, name = `${id}@${second}`) =>
  ({ id, name, updatedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString() }) as Contact;
const item = (c: Contact, inboxEventId?: string): EventUpsert => ({ contact: c, inboxEventId });

describe('previousInBatch', () => {
  it.each<[string, EventUpsert[], [string, string | null][]]>([
    ['one event: the mirror row', [item(contact('a', 1), 'e1')], [['e1', null]]],
    [
      'two contacts: each its mirror row',
      [item(contact('a', 1), 'e1'), item(contact('b', 1), 'e2')],
      [
        ['e1', null],
        ['e2', null],
      ],
    ],
    [
      'two events of one contact: the later compares with the earlier',
      [item(contact('a', 2), 'e2'), item(contact('a', 1), 'e1')],
      [
        ['e1', null],
        ['e2', 'a@1'],
      ],
    ],
    [
      'same updatedAt: submission order',
      [item(contact('a', 1, 'first'), 'e1'), item(contact('a', 1, 'second'), 'e2')],
      [
        ['e1', null],
        ['e2', 'first'],
      ],
    ],
    [
      'an event that needs no previous state still moves the batch on',
      [item(contact('a', 1, 'plain')), item(contact('a', 2), 'e2')],
      [['e2', 'plain']],
    ],
  ])('%s', (_name, items, expected) => {
    expect(previousInBatch(items).map((p) => [p.inboxEventId, p.before?.name ?? null])).toEqual(expected);
  });
});
