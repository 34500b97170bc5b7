import { contactOnlyBlocker } from './check-backfill';

const on = (...events: string[]) => ({ kind: 'event' as const, events });
const leaf = (fact: string, operator = 'equal') => ({ fact, path: '$.x', operator, value: 1 });

describe('contactOnlyBlocker: can the rule be judged on a contact alone?', () => {
  it.each([
    ['a contact rule on contact facts', on('contact.updated'), { all: [leaf('contact')] }, null],
    ['no conditions at all', on('contact.created'), undefined, null],
    ['now.* is read at evaluation time', on('contact.updated'), { all: [leaf('now')] }, null],
    [
      'one contact kind among others',
      on('message.created', 'contact.updated'),
      { all: [leaf('contact')] },
      null,
    ],
    [
      'messages only',
      on('message.created'),
      undefined,
      'it starts on message.created: there is no such event for a contact that already matches',
    ],
    [
      'a change operator, deep in the tree',
      on('contact.updated'),
      { any: [{ not: { all: [leaf('contact', 'changedTo')] } }] },
      'its conditions compare what an event changed (changedTo, added, ...): a contact alone has no previous state',
    ],
    [
      'an event fact',
      on('contact.updated'),
      { all: [leaf('contact'), { any: [leaf('event')] }] },
      'its conditions read event.*, which only an event carries',
    ],
  ])('%s', (_, trigger, conditions, expected) => {
    expect(contactOnlyBlocker(trigger, conditions)).toBe(expected);
  });

  it('refuses a segment rule: its first sweep is its backfill', () => {
    const trigger = {
      kind: 'schedule' as const,
      cron: '0 9 * * 1',
      segment: { filters: {} },
      when: 'entered' as const,
      onLeave: [],
    };
    expect(contactOnlyBlocker(trigger, undefined)).toMatch(/first sweep is its backfill/);
  });
});
